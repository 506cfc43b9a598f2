import type { NextFunction, RequestHandler, Response } from 'express';
import type { CoreHandler } from '@vp-authorizer/core/http';
import { fromNodeRequest, serve, writeNodeResponse } from '@vp-authorizer/core/http';

/**
 * Serve every authorizer route under wherever Express mounts it (Express 4.18+ and 5):
 * `app.use('/authz', authorizerRouter(authorizer))`. It reads req.baseUrl-relative paths
 * (no wildcard routes), so Express 5 path syntax changes do not affect it.
 */
export function authorizerRouter(authorizer: CoreHandler): RequestHandler {
  return (req, res, next) => {
    // Express 4 ignores returned promises: handle everything here.
    serve(authorizer, fromNodeRequest(req, { path: req.path, hostBody: { body: req.body } }))
      .then(({ response, failure }) => {
        // Express's final handler destroys the socket on next(err) after a response: no reuse.
        if (failure) res.setHeader('Connection', 'close');
        writeNodeResponse(res, response);
        if (failure) passOn(res, next, failure.error);
      })
      .catch(next); // a fault while writing still reaches Express
  };
}

/** Hand an unexpected error to Express's error path once our 500 has been fully sent. */
function passOn(res: Response, next: NextFunction, error: unknown): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    next(error);
  };
  if (res.writableFinished) once();
  else res.once('finish', once).once('close', once);
}

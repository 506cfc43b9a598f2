import { Readable } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { clientWentAway, refuseDeclaredOverLimit, refuseParsedOverLimit, errorResponse, isAuthorizerError, readBodyWithLimit, type Authorizer, type CoreRequestBody, type CoreResponse } from '@vp-authorizer/core';

/**
 * Serve every authorizer route under wherever Express mounts it (Express 4.18+ and 5):
 * `app.use('/authz', authorizerRouter(authorizer))`. It reads req.baseUrl-relative paths
 * (no wildcard routes), so Express 5 path syntax changes do not affect it.
 */
export function authorizerRouter(authorizer: Authorizer): RequestHandler {
  return (req, res, next) => {
    // Express 4 ignores returned promises: handle everything here.
    serve(authorizer, req).then(({ answer, failure }) => {
      // Express's final handler destroys the socket on next(err) after a response: no reuse.
      // After a 413, closing stops Node from draining the rest of an oversized upload.
      if (failure || answer.status === 413) res.setHeader('Connection', 'close');
      write(res, answer);
      if (failure) passOn(res, next, failure.error);
    }).catch(next); // a fault while writing still reaches Express
  };
}

async function serve(authorizer: Authorizer, req: Request): Promise<{ answer: CoreResponse; failure?: { error: unknown } }> {
  const outcome: { failure?: { error: unknown } } = {};
  const onError = (error: unknown) => void (outcome.failure = { error });
  try {
    const q = req.url.indexOf('?');
    const headers = new Headers();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const body = await bodyOf(req, authorizer.bodyLimitBytes);
    const query = new URLSearchParams(q === -1 ? '' : req.url.slice(q + 1));
    return { answer: await authorizer.handle({ method: req.method, path: req.path, query, headers, ...(body ? { body } : {}) }, { onError }), ...outcome };
  } catch (error) {
    // The body read throws AuthorizerErrors on purpose (413); a client that hung up is no bug.
    if (!isAuthorizerError(error) && !clientWentAway(req, error)) onError(error);
    return { answer: errorResponse(error, 'rp'), ...outcome };
  }
}

async function bodyOf(req: Request, limit: number): Promise<CoreRequestBody | undefined> {
  refuseDeclaredOverLimit(req, limit); // also when a host parser (with a higher limit) read it
  // "Was the stream consumed" decides, not "is req.body set": Express 4's body-parser sets
  // req.body = {} even for types it skips. Unread: read it ourselves, capped.
  const parsed: unknown = req.readableEnded ? req.body : undefined;
  // express.raw()/text() left bytes or text: still raw, keep them as such (and capped).
  const raw = !req.readableEnded ? req : typeof parsed === 'string' || parsed instanceof Uint8Array ? Readable.from([parsed]) : undefined;
  const bytes = raw ? await readBodyWithLimit(raw, limit) : undefined;
  if (bytes) return bytes.byteLength > 0 ? { kind: 'bytes', bytes } : undefined;
  if (parsed === undefined) return undefined;
  refuseParsedOverLimit(parsed, req.get('content-type'), limit); // express.json()/urlencoded(), chunked
  return { kind: 'parsed', value: parsed }; // the core re-reads it per Content-Type, never re-serialised
}

function write(res: Response, answer: CoreResponse): void {
  res.status(answer.status);
  for (const [name, value] of answer.headers) {
    const lower = name.toLowerCase();
    if (lower === 'set-cookie') res.append(name, value); // several cookies stay several header lines
    else if (lower === 'vary') res.vary(value); // append: keep a CORS `Vary: Origin` set earlier
    else res.setHeader(name, value); // exact value (res.set would rewrite Content-Type)
  }
  // Not res.send(): it adds an ETag, answers 304 to If-None-Match and sends Content-Length 0 on HEAD.
  const body = Buffer.from(answer.body ?? '');
  if (body.byteLength > 0) res.setHeader('Content-Length', body.byteLength);
  res.end(body);
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

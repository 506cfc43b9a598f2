import type { ErrorRequestHandler, RequestHandler } from 'express';
import express5 from 'express';
import express4 from 'express4';
import type { HttpTarget } from '@vp-authorizer/testing';
import { listenOnLoopback } from '@vp-authorizer/testing';
import { authorizerRouter } from '../src/index.js';

/** The HTTP contract target for Express; `framework` is Express 5 (`express`) or 4 (`express4`). */
export function expressTarget(framework: typeof express5): HttpTarget {
  return {
    async start({ prefix, hostBodyParsers, onFrameworkError }) {
      const app = framework();
      let router: RequestHandler | undefined;
      // Limits above the authorizer's: the adapter must enforce bodyLimitBytes on what they parsed.
      if (hostBodyParsers) app.use(framework.json({ limit: '10mb' }), framework.urlencoded({ extended: false, limit: '10mb' }));
      app.use(prefix, (req, res, next) => (router ? router(req, res, next) : void res.sendStatus(503)));
      const onError: ErrorRequestHandler = (error, _req, res, _next) => {
        onFrameworkError?.(error);
        if (!res.headersSent) res.status((error as { status?: number }).status ?? 500).json({ error: 'host error handler' });
      };
      app.use(onError);
      const listening = await listenOnLoopback(app);
      return { origin: listening.origin, attach: (authorizer) => void (router = authorizerRouter(authorizer)), close: listening.close };
    },
  };
}

export const express5Target = (): HttpTarget => expressTarget(express5);
export const express4Target = (): HttpTarget => expressTarget(express4);

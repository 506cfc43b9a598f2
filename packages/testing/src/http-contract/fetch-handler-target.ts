import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Authorizer } from '@vp-authorizer/core';
import type { HttpTarget } from './http-target.js';
import { listenOnLoopback } from './listen.js';

/**
 * The core's web-standard `authorizer.fetch` behind a plain node:http server: the reference
 * target of the HTTP contract. The suite builds the authorizer with `basePath` = the prefix,
 * which only fetch() uses. It has no body parsers and no framework error path. An answer is read
 * whole before it is written, except an event stream (`GET …/events`), which never completes: it
 * is written as it is produced and cancelled when the client goes away.
 */
export function fetchHandlerTarget(): HttpTarget {
  return {
    features: { hostBodyParsers: false, errorPath: false },
    async start() {
      let authorizer: Authorizer | undefined;
      const listening = await listenOnLoopback((req, res) => {
        if (!authorizer) return void res.writeHead(503).end();
        void bridge(authorizer, origin, req, res);
      });
      const origin = listening.origin;
      return { origin, attach: (a) => void (authorizer = a), close: listening.close };
    },
  };
}

async function bridge(authorizer: Authorizer, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(new URL(req.url ?? '/', origin), {
    method: req.method ?? 'GET',
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
  const response = await authorizer.fetch(request);
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => void (name !== 'set-cookie' && (out[name] = value)));
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  // An unread (over-limit) upload: close instead of letting Node drain the rest of it.
  if (!req.complete) out.connection = 'close';
  res.writeHead(response.status, out);
  const stream = response.body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (!stream) return void res.end(Buffer.from(await response.arrayBuffer()));
  const reader = response.body!.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  res.flushHeaders();
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (done || res.destroyed) break;
    res.write(value);
  }
  res.end();
}

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The exact bytes received (what the signature covers). */
  body: Buffer;
  /** `body` parsed as JSON (null when it is not JSON). */
  json: unknown;
  /** What the receiver answered: a status, or 'hang' (never answered). */
  answer: number | 'hang';
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** `origin` + a path: every path is served the same way. */
  url(path?: string): string;
  received: ReceivedWebhook[];
  /** Resolves once `count` webhooks have arrived (rejects after `timeoutMs`, default 10 s). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 (a real node:http server). `answer(n, request)` chooses the
 * answer to the n-th POST (0-based): an HTTP status, or 'hang' to hold the request open until
 * the client gives up or the receiver closes. Default: 200 for everything.
 */
export async function startWebhookReceiver(answer: (n: number, request: Omit<ReceivedWebhook, 'answer'>) => number | 'hang' = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let json: unknown = null;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        // not JSON: kept as bytes only
      }
      const request = { headers: req.headers, body, json };
      const chosen = answer(received.length, request);
      received.push({ ...request, answer: chosen });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      if (chosen === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      res.writeHead(chosen, { 'content-type': 'text/plain' }).end(chosen >= 200 && chosen < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path = '/hooks') => `${origin}${path}`,
    received,
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} webhooks, received ${received.length}`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice());
          },
        });
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

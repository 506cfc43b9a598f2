import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookDeliverySettings } from '../webhook-deliveries.js';
import type { WebhookMessage } from '../webhook-message.js';
import { outboundFetchPolicy } from '../../outbound/outbound-fetch-policy.js';

/** What a test receiver does with a POST: answer a status (and body), or hold it open ('hang'). */
export type ReceiverAnswer = { status: number; body?: Buffer; headers?: Record<string, string> } | 'hang';

export interface LocalReceiver {
  url: string;
  /** webhook-id of every POST received, in arrival order. */
  ids: string[];
  close(): Promise<void>;
}

/** A real node:http receiver on 127.0.0.1; `answer(n)` chooses the answer to the n-th POST. */
export async function localReceiver(answer: (n: number) => ReceiverAnswer): Promise<LocalReceiver> {
  const ids: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const chosen = answer(ids.length);
      ids.push(String(req.headers['webhook-id']));
      if (chosen === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      res.writeHead(chosen.status, chosen.headers ?? {});
      res.end(chosen.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    ids,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const KEY = new TextEncoder().encode('0123456789abcdef0123456789abcdef');

export function settings(overrides: Partial<WebhookDeliverySettings> = {}): WebhookDeliverySettings {
  return {
    maxQueued: 100,
    maxConcurrent: 4,
    maxAttempts: 1,
    timeoutMs: 5_000,
    initialBackoffMs: 20,
    maxBackoffMs: 100,
    outbound: outboundFetchPolicy({ dangerouslyAllowAnyDestination: true }),
    ...overrides,
  };
}

export function message(id: string): WebhookMessage {
  return { id, eventType: 'authorization.created', body: new TextEncoder().encode(JSON.stringify({ type: 'authorization.created', data: { authorizationId: id } })) };
}

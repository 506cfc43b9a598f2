import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StatusListBits } from './status-list.js';

export interface StatusListServer {
  /** Absolute URI of the list (`sub` of the token). */
  uri: string;
  bits: StatusListBits;
  /** Hands out the next unused index, ready for `status` at issuance. */
  allocate(): { idx: number; uri: string };
  setStatus(idx: number, value: number): void;
  close(): Promise<void>;
}

/**
 * A Token Status List endpoint on 127.0.0.1. Every GET signs the current list again, so a
 * `setStatus` is visible to the next fetch. Unknown paths answer 404.
 */
export async function startStatusListServer(options: {
  bits?: StatusListBits;
  size?: number;
  sign: (input: { uri: string; bits: StatusListBits; statuses: readonly number[] }) => Promise<string>;
}): Promise<StatusListServer> {
  const bits = options.bits ?? 1;
  const statuses = new Array<number>(options.size ?? 1024).fill(0);
  const path = `/status-lists/${randomUUID()}`;
  let uri = '';
  let next = 0;
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== path) {
      res.writeHead(404).end();
      return;
    }
    options.sign({ uri, bits, statuses }).then(
      (token) => res.writeHead(200, { 'content-type': 'application/statuslist+jwt', 'cache-control': 'no-store' }).end(token),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return {
    uri,
    bits,
    allocate() {
      if (next >= statuses.length) throw new RangeError('status list is full');
      return { idx: next++, uri };
    },
    setStatus(idx, value) {
      if (idx < 0 || idx >= statuses.length) throw new RangeError(`status index ${idx} is out of range`);
      if (value < 0 || value >= 2 ** bits) throw new RangeError(`status ${value} does not fit in ${bits} bits`);
      statuses[idx] = value;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** A bitstring of `entries` one-bit statuses, entry 0 in the left-most bit; `set` lists the entries at 1. */
export function bitstring(set: number[], entries = 131_072): Uint8Array {
  const bytes = new Uint8Array(Math.ceil(entries / 8));
  for (const index of set) bytes[index >> 3]! |= 0x80 >> (index & 7);
  return bytes;
}

/** A bitstring of `entries` statuses of `size` bits each, entry 0 left-most; `values` sets some (index → value). */
export function multiBitstring(values: Record<number, number>, size: number, entries = 131_072): Uint8Array {
  const bytes = new Uint8Array(Math.ceil((entries * size) / 8));
  for (const [index, value] of Object.entries(values)) {
    for (let bit = 0; bit < size; bit++) {
      if ((value >> (size - 1 - bit)) & 1) {
        const position = Number(index) * size + bit;
        bytes[position >> 3]! |= 0x80 >> (position & 7);
      }
    }
  }
  return bytes;
}

/** `encodedList`: GZIP, base64url, with the multibase `u` prefix (Bitstring Status List) or without (StatusList2021). */
export const encodedList = (bits: Uint8Array, multibase = true): string => `${multibase ? 'u' : ''}${gzipSync(bits).toString('base64url')}`;

export interface W3cStatusListServer {
  url(path: string): string;
  /** What a path answers: a status list credential as JSON (an object) or as a JWT (a string). */
  set(path: string, credential: Record<string, unknown> | string): void;
  hits(path: string): number;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (random port) publishing status list credentials. */
export async function startW3cStatusListServer(): Promise<W3cStatusListServer> {
  const answers = new Map<string, Record<string, unknown> | string>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = answers.get(path);
    if (answer === undefined) return void res.writeHead(404).end();
    if (typeof answer === 'string') return void res.writeHead(200, { 'content-type': 'application/vc+jwt' }).end(answer);
    res.writeHead(200, { 'content-type': 'application/vc+ld+json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set: (path, credential) => void answers.set(path, credential),
    hits: (path) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { request } from 'node:http';

export interface RawResponse {
  status: number;
  /** Header name (lower case) → every value as sent, in order. */
  headers: Map<string, string[]>;
  body: string;
}

/** One HTTP/1.1 request with exactly the given headers (fetch would add or refuse some, such as Origin). */
export function rawRequest(url: string, options: { method?: string; headers?: [string, string][]; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // A flat [name, value, …] list keeps repeated names; Node then adds no Host header itself.
    const headers = [['Host', new URL(url).host] as [string, string], ...(options.headers ?? [])].flatMap(([n, v]) => [n, v]);
    const req = request(url, { method: options.method ?? 'GET', headers: headers as unknown as Record<string, string> }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers = new Map<string, string[]>();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          headers.set(name, [...(headers.get(name) ?? []), res.rawHeaders[i + 1]!]);
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** All values of a header, joined the way a cache or browser reads a list header. */
export const headerList = (res: RawResponse, name: string): string[] =>
  (res.headers.get(name.toLowerCase()) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
export const header = (res: RawResponse, name: string): string | undefined => res.headers.get(name.toLowerCase())?.join(', ');

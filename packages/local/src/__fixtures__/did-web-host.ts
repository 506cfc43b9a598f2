import { webcrypto } from 'node:crypto';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SubjectAlternativeNameExtension } from '@peculiar/x509';
import { createTestCa } from '@vp-authorizer/testing';

/**
 * A did:web host over real TLS on 127.0.0.1: a certificate for `name` from a test CA, DID
 * documents by path, and a `fetch` for the verifier that connects to 127.0.0.1 and trusts that CA
 * (the verifier's outbound policy still checks every URL; the test allows any destination).
 */
export interface DidWebHost {
  /** `did:web:<name>%3A<port>`: the host's own DID. */
  did: string;
  /** Serve `document` for `did` (the host's DID or one under its paths). */
  set(did: string, document: Record<string, unknown>): void;
  fetch: typeof fetch;
  requests: string[];
  close(): Promise<void>;
}

export async function startDidWebHost(name = 'issuer.example'): Promise<DidWebHost> {
  const ca = await createTestCa('CN=did:web test CA');
  const leaf = await ca.issue({ subject: `CN=${name}`, extensions: [new SubjectAlternativeNameExtension([{ type: 'dns', value: name }])] });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leaf.keys.privateKey)).toString('base64');
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
  const documents = new Map<string, string>();
  const requests: string[] = [];
  const server: Server = createServer({ key, cert: leaf.pem }, (req, res) => {
    requests.push(req.url ?? '');
    const body = documents.get(req.url ?? '');
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/did+json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const did = `did:web:${name}%3A${port}`;
  const pathOf = (target: string) => {
    const segments = target.slice(did.length).split(':').filter(Boolean);
    return segments.length === 0 ? '/.well-known/did.json' : `/${segments.join('/')}/did.json`;
  };
  const tlsFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return new Promise<Response>((resolve, reject) => {
      const req = httpsRequest(
        url,
        {
          method: 'GET',
          ca: [ca.pem],
          servername: url.hostname,
          lookup: (_host, options, callback) => (options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : (callback as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4)),
          ...(init?.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const headers = new Headers(Object.entries(res.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : [])));
            resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode ?? 502, headers }));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }) as typeof fetch;
  return {
    did,
    set: (target, document) => void documents.set(pathOf(target), JSON.stringify(document)),
    fetch: tlsFetch,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake resolver answers for one DID. */
export type ResolverAnswer =
  | { document: Record<string, unknown>; asResolutionResult?: boolean }
  | { status: number; body?: string }
  | { hang: true }
  | { redirect: string }
  | { raw: string };

export interface ResolverRequest {
  did: string;
  query: string;
  accept: string | undefined;
}

export interface UniversalResolverServer {
  url: string;
  set(did: string, answer: ResolverAnswer): void;
  requests: ResolverRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the DIF Universal Resolver HTTP API:
 * `GET /1.0/identifiers/{did}` answers the DID document, or a resolution result, per DID.
 * Unknown DIDs get the API's 404 with a `notFound` resolution result.
 */
export async function startUniversalResolver(): Promise<UniversalResolverServer> {
  const answers = new Map<string, ResolverAnswer>();
  const requests: ResolverRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://resolver.invalid');
    const match = /^\/1\.0\/identifiers\/(.+)$/.exec(url.pathname);
    if (!match) return void res.writeHead(400).end();
    const did = decodeURIComponent(match[1]!);
    requests.push({ did, query: url.search, accept: req.headers.accept });
    const answer = answers.get(did);
    const json = (status: number, body: unknown, type = 'application/did+json') => void res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
    if (!answer) return json(404, { didDocument: null, didResolutionMetadata: { error: 'notFound' }, didDocumentMetadata: {} }, 'application/ld+json;profile="https://w3id.org/did-resolution"');
    if ('hang' in answer) return; // never answers: exercises the timeout
    if ('redirect' in answer) return void res.writeHead(302, { location: answer.redirect }).end();
    if ('raw' in answer) return void res.writeHead(200, { 'content-type': 'application/did+json' }).end(answer.raw);
    if ('status' in answer) return void res.writeHead(answer.status).end(answer.body ?? '');
    if (answer.asResolutionResult) return json(200, { didDocument: answer.document, didResolutionMetadata: { contentType: req.headers.accept?.split(',')[0] }, didDocumentMetadata: {} }, 'application/ld+json;profile="https://w3id.org/did-resolution"');
    json(200, answer.document, req.headers.accept?.split(',')[0]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set: (did, answer) => void answers.set(did, answer),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, SignJWT } from 'jose';
import { encodeStatusList, type IssuedCertificate } from '@vp-authorizer/testing';

/** A Token Status List JWT (`statuslist+jwt`) over `values`, signed by `signer`; `typ` and `x5c` can be set wrong on purpose. */
export async function statusListToken(signer: IssuedCertificate, options: { sub: string; values: number[]; bits?: 1 | 2 | 4 | 8; exp?: number; typ?: string; x5c?: string[] }): Promise<string> {
  const bits = options.bits ?? 2;
  const lst = encodeStatusList(options.values, bits);
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: options.sub, iat, exp: options.exp ?? iat + 3600, status_list: { bits, lst } })
    .setProtectedHeader({ alg: 'ES256', typ: options.typ ?? 'statuslist+jwt', x5c: options.x5c ?? [signer.x5c] })
    .sign(await importJWK(signer.privateJwk, 'ES256'));
}

export interface StatusListAnswer {
  token?: string;
  status?: number;
  body?: string;
  hang?: boolean;
  redirect?: string;
}

export interface StatusListServer {
  url(path: string): string;
  /** Sets what a path answers: a token (200), a redirect (302 to `redirect`), or a status code / raw body. */
  set(path: string, answer: StatusListAnswer): void;
  hits(path: string): number;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (random port) serving status list tokens. */
export async function startStatusListServer(): Promise<StatusListServer> {
  const answers = new Map<string, StatusListAnswer>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = answers.get(path);
    if (!answer) return void res.writeHead(404).end();
    if (answer.hang) return; // never answers: exercises the timeout
    if (answer.redirect !== undefined) return void res.writeHead(302, { location: answer.redirect }).end();
    if (answer.token !== undefined && req.headers.accept === 'application/statuslist+jwt') return void res.writeHead(200, { 'content-type': 'application/statuslist+jwt' }).end(answer.token);
    res.writeHead(answer.status ?? 406).end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set: (path, answer) => void answers.set(path, answer),
    hits: (path) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import 'reflect-metadata';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { webcrypto } from 'node:crypto';
import { SubjectAlternativeNameExtension } from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestCa, type TestCa } from '@vp-authorizer/testing';
import { type OutboundLookup, outboundFetchPolicy } from '@vp-authorizer/core';
import { outboundGet } from '@vp-authorizer/core/internal';

// A real TLS server on 127.0.0.1 with a certificate for did.example only. Loopback needs the
// test escape hatch; the resolution, pinning and TLS code paths are the production ones.
let ca: TestCa;
let server: Server;
let port: number;
const requests: { host: string | undefined; servername: string | false | null }[] = [];

beforeAll(async () => {
  ca = await createTestCa();
  const leaf = await ca.issue({ subject: 'CN=did.example', extensions: [new SubjectAlternativeNameExtension([{ type: 'dns', value: 'did.example' }])] });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leaf.keys.privateKey)).toString('base64');
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
  server = createServer({ key, cert: leaf.pem }, (req, res) => {
    requests.push({ host: req.headers.host, servername: (req.socket as TLSSocket).servername });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** First answer: the server's address; any later answer: 127.0.0.2, where nothing listens. */
const rebinding = () => {
  let calls = 0;
  return vi.fn<OutboundLookup>(async () => [{ address: calls++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }]);
};
const get = (url: string, lookup: OutboundLookup, ca?: string[]) =>
  outboundGet(url, { accept: 'application/json', timeoutMs: 2_000, maxBytes: 10_000, signal: new AbortController().signal }, outboundFetchPolicy({ lookup, dangerouslyAllowAnyDestination: true, ...(ca ? { ca } : {}) }));

describe('outbound fetch policy: DNS pinning', () => {
  it('connects to the address that was checked (a second lookup would return another address)', async () => {
    const lookup = rebinding();
    const before = requests.length;
    const response = await get(`https://did.example:${port}/did.json`, lookup, [ca.pem]);
    expect(new TextDecoder().decode(response.body)).toBe('{"ok":true}');
    expect(lookup).toHaveBeenCalledOnce();
    // The request reached the server behind the first answer, with the name for SNI and Host.
    expect(requests.slice(before)).toEqual([{ host: `did.example:${port}`, servername: 'did.example' }]);
  });

  it('keeps TLS verification on against the host name, not the pinned address', async () => {
    const before = requests.length;
    // The certificate is for did.example: another name pinned to the same address is refused.
    await expect(get(`https://other.example:${port}/did.json`, rebinding(), [ca.pem])).rejects.toMatchObject({ reason: 'network' });
    // A certificate from a CA the verifier does not trust is refused.
    await expect(get(`https://did.example:${port}/did.json`, rebinding())).rejects.toMatchObject({ reason: 'network' });
    expect(requests.length).toBe(before);
  });
});

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpValidatorClient } from './http-validator-client.js';
import { httpVerifierClient } from './http-verifier-client.js';
import { isServiceCallError, ServiceCallError } from './service-call-error.js';
import type { ValidateInput } from '../model/validator-client.js';
import type { VerifyIdTokenInput, VerifyInput } from '../model/verifier-client.js';
import type { PolicyResult } from '../model/policy-result.js';
import { ConfigError } from '../errors/config-error.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string, attempt: number) => void;

interface TestServer {
  url: string;
  attempts: () => number;
  bodies: string[];
  requests: IncomingMessage[];
}

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A real node:http server on 127.0.0.1, random port; counts requests server-side. */
async function serve(handler: Handler): Promise<TestServer> {
  let count = 0;
  const bodies: string[] = [];
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      count += 1;
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      requests.push(req);
      handler(req, res, body, count);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { url: `http://127.0.0.1:${port}/svc`, attempts: () => count, bodies, requests };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const okResult: PolicyResult = { path: ['pid', 0], policy: 'credentialQuery', service: 'validator', data: { matched: true } };
const input: ValidateInput = {
  authorizationId: 'auth-1',
  query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:x'] } }] } },
  presentations: [],
  transactionData: ['eyJ0eXBlIjoieCJ9'],
};
const signal = () => new AbortController().signal;

async function callError(promise: Promise<unknown>): Promise<ServiceCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isServiceCallError(error)).toBe(true);
  return error as ServiceCallError;
}

describe('httpValidatorClient over real HTTP', () => {
  it('POSTs the input as JSON to {url}/validate with the configured headers and returns the results', async () => {
    const server = await serve((_req, res) => json(res, 200, { results: [okResult] }));
    const client = httpValidatorClient({ url: `${server.url}/`, headers: { authorization: 'Bearer k1' } });
    const results = await client.validate(input, { signal: signal() });
    expect(results).toEqual([okResult]);
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/svc/validate');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers.authorization).toBe('Bearer k1');
    expect(JSON.parse(server.bodies[0] ?? '')).toEqual(input);
  });

  it('maps 422 to failing results: the service results plus validate.failed with the problem under external.validator', async () => {
    const failure: PolicyResult = { path: ['pid', 0], policy: 'credentialQuery', service: 'validator', error: { type: 'urn:x:claims', code: 'credential_query.claims_unsatisfied' } };
    const problem = { type: 'https://validator.example/errors/invalid', title: 'Invalid', detail: 'claims missing', status: 422 };
    const server = await serve((_req, res) => json(res, 422, { results: [failure], error: problem }));
    const results = await httpValidatorClient({ url: server.url }).validate(input, { signal: signal() });
    expect(results[0]).toEqual(failure);
    expect(results[1]).toMatchObject({ path: [], policy: 'validate', service: 'validator', error: { code: 'validate.failed', vidosType: 'validate-failed', status: 422, external: { validator: problem } } });
    expect(server.attempts()).toBe(1);
  });

  it('maps an empty 422 to a validate.failed result', async () => {
    const server = await serve((_req, res) => json(res, 422, {}));
    const results = await httpValidatorClient({ url: server.url }).validate(input, { signal: signal() });
    expect(results).toHaveLength(1);
    expect(results[0]?.error?.code).toBe('validate.failed');
    expect(results[0]?.error?.external).toBeUndefined();
  });

  it('retries 503 and succeeds when the next attempt answers 200', async () => {
    const server = await serve((_req, res, _body, attempt) => (attempt === 1 ? json(res, 503, { type: 'about:blank' }) : json(res, 200, { results: [okResult] })));
    const results = await httpValidatorClient({ url: server.url }).validate(input, { signal: signal() });
    expect(results).toEqual([okResult]);
    expect(server.attempts()).toBe(2);
  });

  it('retries 503 up to `retries` times, then throws service.unavailable with the problem details', async () => {
    const server = await serve((_req, res) => json(res, 503, { type: 'https://validator.example/errors/down', title: 'Down for maintenance' }));
    const error = await callError(httpValidatorClient({ url: server.url, retries: 2 }).validate(input, { signal: signal() }));
    expect(server.attempts()).toBe(3);
    expect(error).toMatchObject({ code: 'service.unavailable', status: 503, attempts: 3, service: 'validator' });
    expect(error.external).toEqual({ validator: { type: 'https://validator.example/errors/down', title: 'Down for maintenance' } });
  });

  it('does not retry a plain 500, nor a 4xx', async () => {
    const five = await serve((_req, res) => json(res, 500, { message: 'boom' }));
    const e500 = await callError(httpValidatorClient({ url: five.url }).validate(input, { signal: signal() }));
    expect(e500).toMatchObject({ code: 'service.unavailable', status: 500, external: { validator: { detail: 'boom' } } });
    expect(five.attempts()).toBe(1);
    const four = await serve((_req, res) => json(res, 401, { type: 'about:blank', title: 'Unauthorized' }));
    const e401 = await callError(httpValidatorClient({ url: four.url }).validate(input, { signal: signal() }));
    expect(e401).toMatchObject({ code: 'service.bad_response', status: 401 });
    expect(four.attempts()).toBe(1);
  });

  it('retries 429 with a short Retry-After, but not with a long one', async () => {
    const short = await serve((_req, res, _body, attempt) => (attempt === 1 ? json(res, 429, {}, { 'retry-after': '0' }) : json(res, 200, { results: [] })));
    expect(await httpValidatorClient({ url: short.url }).validate(input, { signal: signal() })).toEqual([]);
    expect(short.attempts()).toBe(2);
    const long = await serve((_req, res) => json(res, 429, {}, { 'retry-after': '3600' }));
    expect(await callError(httpValidatorClient({ url: long.url }).validate(input, { signal: signal() }))).toMatchObject({ code: 'service.unavailable', status: 429 });
    expect(long.attempts()).toBe(1);
  });

  it('retries a network failure before any response (connection destroyed)', async () => {
    const server = await serve((req, res, _body, attempt) => (attempt === 1 ? req.socket.destroy() : json(res, 200, { results: [okResult] })));
    expect(await httpValidatorClient({ url: server.url }).validate(input, { signal: signal() })).toEqual([okResult]);
    expect(server.attempts()).toBe(2);
  });

  it('throws service.unavailable when nothing listens (after retries)', async () => {
    const server = await serve((_req, res) => json(res, 200, { results: [] }));
    const url = server.url;
    await Promise.all(servers.splice(0).map((s) => s.close()));
    const error = await callError(httpValidatorClient({ url, retries: 1 }).validate(input, { signal: signal() }));
    expect(error).toMatchObject({ code: 'service.unavailable', attempts: 2, status: undefined });
  });

  it('throws service.bad_response for garbage JSON, without retrying', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"results": [ this is not json');
    });
    expect(await callError(httpValidatorClient({ url: server.url }).validate(input, { signal: signal() }))).toMatchObject({ code: 'service.bad_response', status: 200 });
    expect(server.attempts()).toBe(1);
  });

  it.each([
    ['no results member', { data: [] }],
    ['results not an array', { results: {} }],
    ['a result with neither data nor error', { results: [{ path: [], policy: 'x', service: 'validator' }] }],
    ['a result with both data and error', { results: [{ path: [], policy: 'x', service: 'validator', data: {}, error: { type: 't' } }] }],
    ['an unknown service name', { results: [{ path: [], policy: 'x', service: 'gateway', data: {} }] }],
    ['an error without type', { results: [{ path: [], policy: 'x', service: 'validator', error: { title: 'no type' } }] }],
  ])('throws service.bad_response for a wrongly shaped 200 (%s)', async (_, body) => {
    const server = await serve((_req, res) => json(res, 200, body));
    expect(await callError(httpValidatorClient({ url: server.url }).validate(input, { signal: signal() }))).toMatchObject({ code: 'service.bad_response' });
  });

  it('throws service.bad_response for a wrongly shaped 422', async () => {
    const server = await serve((_req, res) => json(res, 422, { results: 'nope' }));
    expect(await callError(httpValidatorClient({ url: server.url }).validate(input, { signal: signal() }))).toMatchObject({ code: 'service.bad_response', status: 422 });
  });

  it('does not follow redirects', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(307, { location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    });
    const error = await callError(httpValidatorClient({ url: server.url }).validate(input, { signal: signal() }));
    expect(error).toMatchObject({ code: 'service.bad_response', status: 307 });
    expect(server.attempts()).toBe(1);
  });

  it('times out a service slower than timeoutMs (service.timeout)', async () => {
    const server = await serve((_req, res) => {
      const timer = setTimeout(() => json(res, 200, { results: [] }), 5_000);
      res.on('close', () => clearTimeout(timer));
    });
    const error = await callError(httpValidatorClient({ url: server.url, timeoutMs: 150 }).validate(input, { signal: signal() }));
    expect(error).toMatchObject({ code: 'service.timeout', attempts: 1 });
  });

  it('times out a service that accepts the connection and never answers', async () => {
    const server = await serve(() => {
      /* never answer */
    });
    const error = await callError(httpValidatorClient({ url: server.url, timeoutMs: 150 }).validate(input, { signal: signal() }));
    expect(error.code).toBe('service.timeout');
    expect(server.attempts()).toBe(1);
  });

  it('does not retry past the overall deadline', async () => {
    // Every attempt answers 503 after a pause; the deadline ends the call, not the retry budget.
    const server = await serve((_req, res) => {
      const timer = setTimeout(() => json(res, 503, {}), 120);
      res.on('close', () => clearTimeout(timer));
    });
    const error = await callError(httpValidatorClient({ url: server.url, timeoutMs: 200, retries: 10 }).validate(input, { signal: signal() }));
    expect(['service.timeout', 'service.unavailable']).toContain(error.code);
    expect(server.attempts()).toBeLessThan(11);
  });

  it('honours the caller abort: rejects with the caller reason, not a ServiceCallError', async () => {
    const server = await serve(() => {
      /* never answer */
    });
    const controller = new AbortController();
    const reason = new Error('authorizer gave up');
    const pending = httpValidatorClient({ url: server.url }).validate(input, { signal: controller.signal });
    // Abort once the request has reached the server.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (server.attempts() > 0) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(server.attempts()).toBe(1);
  });

  it('does not send anything when the caller signal is already aborted', async () => {
    const server = await serve((_req, res) => json(res, 200, { results: [] }));
    const controller = new AbortController();
    controller.abort(new Error('already'));
    await expect(httpValidatorClient({ url: server.url }).validate(input, { signal: controller.signal })).rejects.toThrow('already');
    expect(server.attempts()).toBe(0);
  });

  it('validates its options at construction', () => {
    expect(() => httpValidatorClient({ url: 'not a url' })).toThrow(ConfigError);
    expect(() => httpValidatorClient({ url: 'ftp://validator.example' })).toThrow(ConfigError);
    expect(() => httpValidatorClient({ url: 'https://user:pw@validator.example' })).toThrow(ConfigError);
    expect(() => httpValidatorClient({ url: 'https://validator.example', timeoutMs: 0 })).toThrow(ConfigError);
    expect(() => httpValidatorClient({ url: 'https://validator.example', retries: -1 })).toThrow(ConfigError);
    expect(() => httpValidatorClient({ url: 'https://validator.example' })).not.toThrow();
  });

  it('uses an injected fetch', async () => {
    const calls: string[] = [];
    const fakeFetch: typeof fetch = async (url) => {
      calls.push(String(url));
      return new Response(JSON.stringify({ results: [okResult] }), { status: 200 });
    };
    expect(await httpValidatorClient({ url: 'https://validator.example/v1', fetch: fakeFetch }).validate(input, { signal: signal() })).toEqual([okResult]);
    expect(calls).toEqual(['https://validator.example/v1/validate']);
  });
});

describe('httpVerifierClient over real HTTP', () => {
  const verifyInput = { authorizationId: 'a', nonce: 'n', audience: 'x509_hash:abc' } as unknown as VerifyInput;
  const idTokenInput = { authorizationId: 'a', nonce: 'n', audience: 'x509_hash:abc' } as unknown as VerifyIdTokenInput;
  const verifierResult: PolicyResult = { path: ['pid', 0], policy: 'proof', service: 'verifier', data: {} };

  it('POSTs to /verify and /verify-jwt', async () => {
    const server = await serve((req, res) => json(res, 200, { results: [{ ...verifierResult, policy: req.url === '/svc/verify' ? 'proof' : 'idToken' }] }));
    const client = httpVerifierClient({ url: server.url });
    expect((await client.verify(verifyInput, { signal: signal() }))[0]?.policy).toBe('proof');
    expect((await client.verifyIdToken(idTokenInput, { signal: signal() }))[0]?.policy).toBe('idToken');
    expect(server.requests.map((r) => r.url)).toEqual(['/svc/verify', '/svc/verify-jwt']);
    expect(JSON.parse(server.bodies[1] ?? '')).toEqual(idTokenInput);
  });

  it('maps 422 to verify.failed with the problem under external.verifier', async () => {
    const server = await serve((_req, res) => json(res, 422, { error: { type: 'https://verifier.example/errors/proof', detail: 'bad signature' } }));
    const results = await httpVerifierClient({ url: server.url }).verify(verifyInput, { signal: signal() });
    expect(results).toEqual([
      {
        path: [],
        policy: 'verify',
        service: 'verifier',
        error: expect.objectContaining({ code: 'verify.failed', vidosType: 'verify-failed', type: 'https://vp-authorizer.dev/errors/verify.failed', external: { verifier: { type: 'https://verifier.example/errors/proof', detail: 'bad signature' } } }),
      },
    ]);
  });

  it('throws ServiceCallError with service "verifier" on 5xx', async () => {
    const server = await serve((_req, res) => json(res, 504, {}));
    const error = await callError(httpVerifierClient({ url: server.url, retries: 1 }).verifyIdToken(idTokenInput, { signal: signal() }));
    expect(error).toMatchObject({ code: 'service.unavailable', service: 'verifier', attempts: 2 });
    expect(error.message).toContain('verifier /verify-jwt');
    expect(server.attempts()).toBe(2);
  });
});

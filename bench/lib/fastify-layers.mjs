// The Fastify server of http-layer-cost.mjs: GET status and POST resolve (an unknown code)
// answered at five depths in one process, so that the CPU per request of each depth minus the
// one below it is what that layer costs under real HTTP load:
//   /bare       Fastify's own trivial JSON routes (the http-load.mjs baseline)
//   /checked    the same checks written by hand in a Fastify route: the API key compared in
//               constant time, the record or the code's SHA-256 store key looked up, the same
//               answer (body and headers) as the authorizer's; Fastify parses the JSON body, as
//               for /bare (which also re-serialises and parses it, as http-load.mjs's bare route does)
//   /plumbing   the plugin's scope (body left in the stream), the Node bridge reading the request,
//               a fixed answer written by the shared Node writer: everything but the core
//   /handle     the same plumbing with authorizer.handle() answering (no serve())
//   /authz      authorizerPlugin as an application mounts it
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { API_KEY } from './constants.mjs';
import { passThroughAuthorizer } from './pass-through-authorizer.mjs';

export async function startFastifyLayers() {
  const { default: Fastify } = await import('fastify');
  const { fromNodeRequest, pathBelowSegments, writeNodeResponse } = await import('@vp-authorizer/core/http');
  const { authorizerPlugin } = await import('@vp-authorizer/fastify');
  const { authorizer, authorizationId, statusPath } = await passThroughAuthorizer(await import('@vp-authorizer/core'), { publicBaseUrl: 'http://127.0.0.1/authz' });

  // The answers the authorizer gives, taken from it, so that every depth but /bare sends its bytes.
  const statusAnswer = await authorizer.handle(coreGet(statusPath));
  const refusal = await authorizer.handle(corePost('/openid4/vp/v1_0/response-code/resolve', '{"response_code":"unknown-code-0000000000"}'));
  const copyOf = (answer) => () => ({ status: answer.status, headers: answer.headers.map(([name, value]) => [name, value]), body: answer.body });
  const fixed = { GET: copyOf(statusAnswer), POST: copyOf(refusal) };

  let handler;
  const app = Fastify({
    serverFactory: (h) => {
      handler = h;
      return createServer();
    },
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.get('/bare/status', async () => ({ status: 'pending', authorizationId: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', expiresAt: '2026-01-01T00:00:00.000Z' }));
  app.post('/bare/resolve', async (request, reply) => {
    JSON.parse(typeof request.body === 'string' ? request.body : JSON.stringify(request.body));
    reply.code(404);
    return { error: 'response_code.not_found', message: 'Unknown response code.' };
  });

  // The checks by hand: what a route doing the same job needs at the least.
  const keySlot = Buffer.alloc(4 + API_KEY.length);
  keySlot.writeUInt32BE(API_KEY.length, 0);
  keySlot.write(API_KEY, 4);
  const scratch = Buffer.alloc(keySlot.length);
  const keyMatches = (header) => {
    const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header ?? '');
    if (!match || Buffer.byteLength(match[1]) !== API_KEY.length) return false;
    scratch.writeUInt32BE(API_KEY.length, 0);
    scratch.write(match[1], 4);
    const equal = timingSafeEqual(scratch, keySlot);
    scratch.fill(0);
    return equal;
  };
  const records = new Map([[authorizationId, { status: 'created' }]]);
  const codes = new Map();
  const send = (reply, answer) => {
    reply.code(answer.status);
    for (const [name, value] of answer.headers) reply.header(name, value);
    return answer.body;
  };
  app.get('/checked/openid4/vp/v1_0/authorizations/:id/status', async (request, reply) => {
    if (!keyMatches(request.headers.authorization)) return reply.code(401).send();
    const record = records.get(request.params.id);
    if (!record) return reply.code(404).send();
    return send(reply, { status: 200, headers: statusAnswer.headers, body: JSON.stringify({ status: record.status }) });
  });
  app.post('/checked/openid4/vp/v1_0/response-code/resolve', async (request, reply) => {
    if (!keyMatches(request.headers.authorization)) return reply.code(401).send();
    const body = typeof request.body === 'string' ? JSON.parse(request.body) : request.body;
    if (typeof body?.response_code !== 'string') return reply.code(400).send();
    const entry = codes.get(`bench:${createHash('sha256').update(body.response_code).digest('base64url')}`);
    if (!entry) return send(reply, refusal);
    return reply.code(500).send();
  });

  // The plugin's scope without the core, then with handle().
  const leaveInStream = (_request, _payload, next) => next(null);
  const layer = (answer) => (scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', leaveInStream);
    scope.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], leaveInStream);
    const route = async (request, reply) => {
      const core = await fromNodeRequest(request.raw, { path: pathBelowSegments(request.url, 1) }).read(authorizer.bodyLimitBytes);
      const response = await answer(core);
      reply.hijack();
      writeNodeResponse(reply.raw, response);
    };
    scope.all('/', route).all('/*', route);
    done();
  };
  await app.register(layer(async (core) => fixed[core.method]()), { prefix: '/plumbing' });
  await app.register(layer((core) => authorizer.handle(core)), { prefix: '/handle' });
  await app.register(authorizerPlugin, { prefix: '/authz', authorizer });
  await app.ready();

  const server = createServer((req, res) => handler(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, statusPath };
}

function coreGet(path) {
  return { method: 'GET', path, query: new URLSearchParams(), headers: new Headers({ authorization: `Bearer ${API_KEY}` }) };
}

function corePost(path, text) {
  return { ...coreGet(path), method: 'POST', headers: new Headers({ authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }), body: { kind: 'bytes', bytes: Buffer.from(text) } };
}

import { API_KEY } from '/work/main/bench/lib/constants.mjs';
import { passThroughAuthorizer } from '/work/main/bench/lib/pass-through-authorizer.mjs';
const core = await import('@vp-authorizer/core');
const { serve, fromNodeRequest } = await import('@vp-authorizer/core/http');
const { authorizer, statusPath } = await passThroughAuthorizer(core);
const resolvePath = '/openid4/vp/v1_0/response-code/resolve';
const body = '{"response_code":"unknown-code-0000000000"}';
const nodeRequest = (method, url, extra) => ({ method, url, rawHeaders: ['Host', '127.0.0.1:8080', 'Authorization', `Bearer ${API_KEY}`, ...extra], headers: {}, readableEnded: true, httpVersionMajor: 1 });
const which = process.argv[2] ?? 'post';
const run = which === 'post'
  ? () => serve(authorizer, fromNodeRequest(nodeRequest('POST', `/authz${resolvePath}`, ['Content-Type', 'application/json']), { path: resolvePath, hostBody: { rawBody: body } }))
  : () => serve(authorizer, fromNodeRequest(nodeRequest('GET', `/authz${statusPath}`, []), { path: statusPath }));
const t = performance.now();
for (let i = 0; i < 1_500_000; i++) await run();
console.log(which, ((performance.now() - t) / 1.5e3).toFixed(3), 'µs/op');

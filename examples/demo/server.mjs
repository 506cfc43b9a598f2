#!/usr/bin/env node
// `npm run demo`: start the demo and print how to use it. PORT and HOST override the defaults.
import { startDemo } from './demo.mjs';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
let demo;
try {
  demo = await startDemo({ port, host });
} catch (error) {
  if (error?.code !== 'EADDRINUSE') throw error;
  console.warn(`Port ${port} is busy; using a free one instead.`);
  demo = await startDemo({ port: 0, host });
}
const { origin, apiKey } = demo;
console.log(`
vp-authorizer demo is running.

  Page:      ${origin}/           (create an authorization, let the test wallet answer it)
  API base:  ${origin}/authz
  API key:   ${apiKey}           (Authorization: Bearer <key>; new on every start)

It runs on the embedded defaults: memory store, localValidator + localVerifier, a generated dev
signing key (root CA → leaf) and a generated dev issuer whose PID credential sits in the test wallet.

Try it with curl:
  curl -s -X POST ${origin}/authz/openid4/vp/v1_0/authorizations \\
    -H 'authorization: Bearer ${apiKey}' -H 'content-type: application/json' \\
    -d '{"responseMode":"direct_post.jwt","profile":"haip","query":{"type":"DCQL","dcql":{"credentials":[{"id":"pid","format":"dc+sd-jwt","meta":{"vct_values":["urn:eudi:pid:1"]}}]}}}'

Get a test credential presented: POST ${origin}/demo/wallet with {"authorizeUrl": "<the authorizeUrl above>"}
— the built-in test wallet holds a PID from the demo issuer and answers like a phone would; the
redirect it returns (${origin}/demo/callback?response_code=…) resolves the one-time code.

Press Ctrl+C to stop.`);
const stop = async () => {
  await demo.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

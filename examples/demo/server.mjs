#!/usr/bin/env node
// `npm run demo`: start the demo and print how to use it. It needs no environment; the variables
// of docs/examples-configuration.md (PORT, HOST, AUTHZ_REDIRECT_URI, AUTHZ_API_KEY, …) override the defaults.
import { describeConfig, startOrExit } from '../shared/config-from-env.mjs';
import { startDemo } from './demo.mjs';

const demo = await startOrExit(async () => {
  try {
    return await startDemo();
  } catch (error) {
    if (error?.code !== 'EADDRINUSE') throw error;
    console.warn(`Port ${process.env.PORT ?? 3000} is busy; using a free one instead.`);
    return await startDemo({ port: 0 });
  }
});
const { origin, apiKey, config, publicBaseUrl } = demo;
const shownKey = config.apiKey ? '$AUTHZ_API_KEY' : apiKey;
console.log(`
vp-authorizer demo is running.

  Page:      ${origin}/           (create an authorization, let the test wallet answer it)
  API base:  ${origin}/authz      (Authorization: Bearer <API key>)
${describeConfig(config, { apiKey, publicBaseUrl, defaults: { redirectUri: `${origin}/demo/callback`, issuerRoots: 'the demo issuer' } })}

With no environment set it runs on the embedded defaults: memory store, localValidator +
localVerifier, a generated dev signing key (root CA → leaf), a new API key on every start, and a
generated dev issuer whose PID credential sits in the test wallet. Settings:
docs/examples-configuration.md.

Try it with curl:
  curl -s -X POST ${origin}/authz/openid4/vp/v1_0/authorizations \\
    -H "authorization: Bearer ${shownKey}" -H 'content-type: application/json' \\
    -d '{"responseMode":"direct_post.jwt","profile":"haip","query":{"type":"DCQL","dcql":{"credentials":[{"id":"pid","format":"dc+sd-jwt","meta":{"vct_values":["urn:eudi:pid:1"]}}]}}}'

Get a test credential presented: POST ${origin}/demo/wallet with {"authorizeUrl": "<the authorizeUrl above>"}
— the built-in test wallet holds a PID from the demo issuer and answers like a phone would; the
redirect it returns (${config.redirectUri ?? `${origin}/demo/callback`}?response_code=…) carries the one-time code.

Press Ctrl+C to stop.`);
const stop = async () => {
  await demo.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

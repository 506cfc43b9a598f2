#!/usr/bin/env node
// `npm run demo`: start the demo and print where its pages are. It needs no environment; the variables
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

  Verifier:    ${origin}/          (a relying party's page: ask for a PID and/or an mDL, show the QR code)
  Test wallet: ${origin}/wallet    (answer the request without a phone: consent, decline, or present a bad credential)
  API base:    ${origin}/authz     (Authorization: Bearer <API key>)
${describeConfig(config, { apiKey, publicBaseUrl, defaults: { redirectUri: `${origin}/demo/callback`, issuerRoots: 'the demo issuer' } })}

With no environment set it runs on the embedded defaults: memory store, localValidator +
localVerifier, a generated dev signing key (root CA → leaf), a new API key on every start, and a
generated dev issuer whose PID (SD-JWT VC) and mDL (mdoc) sit in the test wallet. The pages are
described in docs/examples/demo.md; the settings in docs/examples-configuration.md.

Try the API with curl:
  curl -s -X POST ${origin}/authz/openid4/vp/v1_0/authorizations \\
    -H "authorization: Bearer ${shownKey}" -H 'content-type: application/json' \\
    -d '{"responseMode":"direct_post.jwt","profile":"haip","query":{"type":"DCQL","dcql":{"credentials":[{"id":"pid","format":"dc+sd-jwt","meta":{"vct_values":["urn:eudi:pid:1"]}}]}}}'

Press Ctrl+C to stop.`);
const stop = async () => {
  await demo.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

import { it } from 'vitest';
import { createTestCa } from '/work/main/packages/local/src/verifier/__fixtures__/test-ca.js';
import { createMdocFixture } from '/work/main/packages/local/src/verifier/__fixtures__/mdoc-issuer.js';
import { sessionTranscriptBytes } from '/work/main/packages/local/src/verifier/mdoc/session-transcript.js';
it('probe', async () => {
  const ca = await createTestCa();
  const fx = await createMdocFixture(ca);
  const raw = await fx.deviceResponse({ transcript: sessionTranscriptBytes({ kind: 'redirect', clientId: 'c', nonce: 'n', responseUri: 'https://r', jwkThumbprint: null }) });
  console.log(raw.length, raw.slice(0, 60));
});

// One authorizer in this process, as the in-process tools measure it: memory store, no sweeps,
// @vp-authorizer/local's validator and verifier trusting one test issuer (status lists off: the
// test issuer publishes none), one instance with a dev signing identity.
// `build` (from lib/ab-builds.mjs) picks the core and local to use; the workspace's by default.
export async function inProcessAuthorizer({ base, apiKey, instanceId, issuer, build }) {
  const { createAuthorizer, memoryStore } = build?.core ?? (await import('@vp-authorizer/core'));
  const { generateDevSigningKey } = await import('@vp-authorizer/keys');
  const { localValidator, localVerifier } = build?.local ?? (await import('@vp-authorizer/local'));
  const dev = await generateDevSigningKey();
  const trustAnchors = [issuer.rootCertificatePem];
  const authorizer = createAuthorizer({
    publicBaseUrl: base,
    sweepIntervalMs: 0,
    store: memoryStore({ sweepIntervalMs: 0 }),
    instances: [
      {
        id: instanceId,
        apiKeys: [apiKey],
        signing: dev.signing,
        config: { openId4vp: { redirectUri: 'https://rp.example/cb' } },
        validator: localValidator({ trustedIssuers: trustAnchors }),
        verifier: localVerifier({ trustAnchors, statusList: { enabled: false } }),
      },
    ],
  });
  await authorizer.ready();
  return { authorizer, dev };
}

// One authorizer in this process, as the in-process tools measure it: memory store, no sweeps,
// @vp-authorizer/local's validator and verifier trusting one test issuer (status lists off: the
// test issuer publishes none), one instance with a dev signing identity. The store, validator and
// verifier are returned too, for tools that run pipeline steps on their own.
// `build` (from lib/ab-builds.mjs) picks the core and local to use; the workspace's by default.
export async function inProcessAuthorizer({ base, apiKey, instanceId, issuer, build }) {
  const { createAuthorizer, memoryStore } = build?.core ?? (await import('@vp-authorizer/core'));
  const { generateDevSigningKey } = await import('@vp-authorizer/keys');
  const { localValidator, localVerifier } = build?.local ?? (await import('@vp-authorizer/local'));
  const dev = await generateDevSigningKey();
  const trustAnchors = [issuer.rootCertificatePem];
  const store = memoryStore({ sweepIntervalMs: 0 });
  const validator = localValidator({ trustedIssuers: trustAnchors });
  const verifier = localVerifier({ trustAnchors, statusList: { enabled: false } });
  const authorizer = createAuthorizer({
    publicBaseUrl: base,
    sweepIntervalMs: 0,
    store,
    instances: [
      {
        id: instanceId,
        apiKeys: [apiKey],
        signing: dev.signing,
        config: { openId4vp: { redirectUri: 'https://rp.example/cb' } },
        validator,
        verifier,
      },
    ],
  });
  await authorizer.ready();
  return { authorizer, dev, store, validator, verifier };
}

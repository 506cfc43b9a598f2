import type { PolicyResult, OutboundLookup } from '@vp-authorizer/core';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSdJwtFixture, type SdJwtFixture } from '../__fixtures__/sd-jwt-issuer.js';
import { createTestCa, type TestCa } from '@vp-authorizer/testing';
import { sdJwtPresentation, signal, verifyInput } from '../__fixtures__/verify-input.js';
import { resolveLocalVerifierOptions } from '../verifier/local-verifier-options.js';
import { localVerifier } from '../verifier/local-verifier.js';
import { pinnedRequest } from '../../../core/src/outbound/pinned-request.js';

// Nothing may connect anywhere from here: core's pinned transport (the one the outbound policy
// connects with) is replaced and records its calls.
vi.mock('../../../core/src/outbound/pinned-request.js', () => ({ pinnedRequest: vi.fn() }));

let ca: TestCa;
let fx: SdJwtFixture;
beforeAll(async () => {
  ca = await createTestCa();
  fx = await createSdJwtFixture(ca);
});
beforeEach(() => vi.mocked(pinnedRequest).mockClear());

const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.policy}:${r.error!.code}`);

describe('localVerifier: outbound fetch policy wiring', () => {
  it('refuses a wallet-supplied status list URI whose name resolves to the metadata address, through outboundFetch.lookup', async () => {
    const lookup = vi.fn<OutboundLookup>(async () => [{ address: '169.254.169.254', family: 4 }]);
    const raw = await fx.present(await fx.issue({ claims: { status: { status_list: { idx: 0, uri: 'https://status.wallet-chosen.example/latest/meta-data' } } } }));
    const results = await localVerifier({ trustAnchors: [ca.pem], outboundFetch: { lookup } }).verify(verifyInput([sdJwtPresentation(raw)]), { signal: signal() });
    expect(errorsOf(results)).toEqual(['status:status.unavailable']);
    expect(results.find((r) => r.policy === 'status')!.error!.detail).not.toContain('169.254');
    expect(lookup).toHaveBeenCalledWith('status.wallet-chosen.example');
    expect(pinnedRequest).not.toHaveBeenCalled();
  });

  it('exposes the limits and the escape hatch with safe defaults, and rejects the old escape hatch names', () => {
    const resolved = resolveLocalVerifierOptions({ trustAnchors: [] });
    expect(resolved.statusList).toMatchObject({ timeoutMs: 3_000, maxBytes: 1_000_000 });
    expect(resolved.didWeb).toMatchObject({ timeoutMs: 3_000, maxBytes: 200_000 });
    expect(resolved.outboundPolicy).toMatchObject({ dangerouslyAllowAnyDestination: false, maxHeaderBytes: 16_384 });
    expect(resolved.outboundPolicy.fetch).toBeUndefined();
    // A silently ignored old flag would leave a test setup "working" against a different policy.
    expect(() => resolveLocalVerifierOptions({ trustAnchors: [], statusList: { allowHttp: true } } as never)).toThrow(/Invalid localVerifier options/);
    expect(() => resolveLocalVerifierOptions({ trustAnchors: [], didWeb: { allowInsecureHosts: true } } as never)).toThrow(/Invalid localVerifier options/);
    expect(() => resolveLocalVerifierOptions({ trustAnchors: [], outboundFetch: { lookup: 'dns' as never } })).toThrow(/Invalid localVerifier options/);
  });
});

import type { PolicyResult } from '@vp-authorizer/core';
import { createTestCa, type TestCa } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSdJwtFixture, type SdJwtFixture } from '../__fixtures__/sd-jwt-issuer.js';
import { sdJwtPresentation, signal, verifyInput } from '../__fixtures__/verify-input.js';
import type { IssuerAnchorAnswer, IssuerAnchorQuery, IssuerAnchorSource } from '../x509/issuer-anchors.js';
import { localVerifier } from './local-verifier.js';

const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => r.error!.code);

/** A source that lists `root` for PIDs only, and records what it was asked. */
function pidOnlySource(root: TestCa, refusal?: IssuerAnchorAnswer['refusal']): IssuerAnchorSource & { asked: IssuerAnchorQuery[] } {
  const asked: IssuerAnchorQuery[] = [];
  return {
    asked,
    async issuerAnchors(query) {
      asked.push(query);
      if (query.credentialTypes.includes('urn:eudi:pid:1')) return { anchors: [root.pem] };
      return { anchors: [], ...(refusal ? { refusal } : {}) };
    },
  };
}

describe('localVerifier issuerAnchors', () => {
  let ca: TestCa;
  let sd: SdJwtFixture;
  beforeAll(async () => {
    ca = await createTestCa();
    sd = await createSdJwtFixture(ca);
  });

  it('trusts a chain through the anchors the source lists for the credential type, with no PEM anchors configured', async () => {
    const source = pidOnlySource(ca);
    const input = verifyInput([sdJwtPresentation(await sd.present(await sd.issue()))]);
    expect(errorsOf(await localVerifier({ trustAnchors: [], issuerAnchors: source }).verify(input, { signal: signal() }))).toEqual([]);
    expect(source.asked[0]).toMatchObject({ purpose: 'credential', credentialTypes: ['urn:eudi:pid:1'] });
    expect(source.asked[0]!.issuedAt).toBeGreaterThan(0);
  });

  it('does not let a root listed for PIDs vouch for another credential type', async () => {
    const input = verifyInput([sdJwtPresentation(await sd.present(await sd.issue({ claims: { vct: 'urn:example:diploma' } })))]);
    expect(errorsOf(await localVerifier({ trustAnchors: [], issuerAnchors: pidOnlySource(ca) }).verify(input, { signal: signal() }))).toEqual(['trusted_issuer.untrusted']);
  });

  it("reports the source's reason when the issuer is listed but withdrawn", async () => {
    const source = pidOnlySource(ca, { code: 'trusted_issuer.withdrawn', detail: 'withdrawn in the test list' });
    const input = verifyInput([sdJwtPresentation(await sd.present(await sd.issue({ claims: { vct: 'urn:example:diploma' } })))]);
    const results = await localVerifier({ trustAnchors: [], issuerAnchors: source }).verify(input, { signal: signal() });
    expect(errorsOf(results)).toEqual(['trusted_issuer.withdrawn']);
  });

  it('refuses an issuerAnchors option without an issuerAnchors() method at construction', () => {
    expect(() => localVerifier({ trustAnchors: [], issuerAnchors: {} as IssuerAnchorSource })).toThrow(/issuerAnchors must be an object with an issuerAnchors\(\) method/);
  });
});

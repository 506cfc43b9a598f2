import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { SubjectAlternativeNameExtension } from '@peculiar/x509';
import { ConfigError, type PolicyResult } from '@vp-authorizer/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSdJwtFixture, nowSeconds, type SdJwtFixture } from '../../__fixtures__/sd-jwt-issuer.js';
import { didJwk } from '../../__fixtures__/did-keys.js';
import { createSelfSignedLeaf, createTestCa, generateTestKeys, type TestCa } from '@vp-authorizer/testing';
import { CLIENT_ID, coreParsedSdJwt, NONCE, sdJwtPresentation, signal, verifyInput } from '../../__fixtures__/verify-input.js';
import { localVerifier } from '../local-verifier.js';

const YEAR = 365 * 86_400;
const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.policy}:${r.error!.code}`);

let ca: TestCa;
let fx: SdJwtFixture;
let verifier: ReturnType<typeof localVerifier>;

beforeAll(async () => {
  ca = await createTestCa();
  fx = await createSdJwtFixture(ca);
  verifier = localVerifier({ trustAnchors: [ca.pem] });
});

// Every case twice: decoded by the verifier from `raw`, and with the decoding core's format policy
// did in this process reused (the signatures are checked over `raw` either way).
describe.each([
  ['decoded by the verifier', sdJwtPresentation],
  ['decoded by core in this process', coreParsedSdJwt],
])('localVerifier: SD-JWT VC, %s', (_, presentationOf) => {
  const verify = async (raw: string, overrides: Parameters<typeof verifyInput>[1] = {}, v = verifier) => v.verify(verifyInput([presentationOf(raw)], overrides), { signal: signal() });

  it('accepts a valid presentation with a KB-JWT and reports issuer data', async () => {
    const results = await verify(await fx.present(await fx.issue()));
    expect(errorsOf(results)).toEqual([]);
    expect(results.map((r) => r.policy)).toEqual(['proof', 'notBefore', 'notAfter', 'holderBinding', 'status']);
    expect(results.every((r) => r.service === 'verifier' && r.path.join('/') === 'pid/0')).toBe(true);
    expect(results[0]!.data).toMatchObject({ issuer: 'https://issuer.example', vct: 'urn:eudi:pid:1', x5cSubject: expect.stringContaining('CN=PID Issuer'), trustAnchor: expect.stringContaining('CN=Test Root CA') });
    expect(results[3]!.data).toMatchObject({ method: 'kb-jwt', alg: 'ES256' });
  });

  it('rejects a bad issuer signature', async () => {
    const other = await generateTestKeys();
    const results = await verify(await fx.present(await fx.issue({ issuerKeys: other })));
    expect(errorsOf(results)).toEqual(['proof:proof.signature_invalid']);
    expect(results[0]!.error!.type).toBe('https://vp-authorizer.dev/errors/proof.signature_invalid');
  });

  it('rejects an issuer chain to an untrusted root', async () => {
    const untrusted = localVerifier({ trustAnchors: [(await createTestCa('CN=Other Root')).pem] });
    expect(errorsOf(await verify(await fx.present(await fx.issue()), {}, untrusted))).toEqual(['proof:trusted_issuer.untrusted']);
  });

  it('rejects an expired issuer certificate', async () => {
    const old = await ca.issue({ subject: 'CN=Old Issuer', notBefore: new Date(Date.now() - 20 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
    const credential = await fx.issue({ issuerKeys: old, header: { x5c: [old.x5c] } });
    const results = await verify(await fx.present(credential));
    expect(errorsOf(results)).toEqual(['proof:trusted_issuer.chain_invalid']);
    expect(results[0]!.error!.detail).toContain('expired');
  });

  it('rejects a KB-JWT signed by another key', async () => {
    const results = await verify(await fx.present(await fx.issue(), { holderKeys: await generateTestKeys() }));
    expect(errorsOf(results)).toEqual(['holderBinding:holder_binding.signature_invalid']);
  });

  it('rejects a wrong nonce and a wrong audience', async () => {
    const credential = await fx.issue();
    expect(errorsOf(await verify(await fx.present(credential, { kb: { nonce: 'other-nonce' } })))).toEqual(['holderBinding:holder_binding.nonce_mismatch']);
    expect(errorsOf(await verify(await fx.present(credential, { kb: { aud: 'x509_hash:other' } })))).toEqual(['holderBinding:holder_binding.aud_mismatch']);
  });

  it('accepts the DC API audience origin:<origin> when that is the expected audience', async () => {
    const raw = await fx.present(await fx.issue(), { kb: { aud: 'origin:https://rp.example' } });
    expect(errorsOf(await verify(raw, { audience: 'origin:https://rp.example' }))).toEqual([]);
    expect(errorsOf(await verify(raw))).toEqual(['holderBinding:holder_binding.aud_mismatch']);
  });

  it('rejects a KB-JWT whose sd_hash does not cover the presented disclosures', async () => {
    const raw = await fx.present(await fx.issue());
    const parts = raw.split('~');
    // Drop the one presented disclosure: the issuer part stays valid, the sd_hash no longer matches.
    const tampered = [parts[0], parts.at(-1)].join('~');
    expect(parts).toHaveLength(3);
    expect(errorsOf(await verify(tampered))).toEqual(['holderBinding:holder_binding.sd_hash_mismatch']);
  });

  it('rejects a KB-JWT iat a year in the past and a year in the future', async () => {
    const credential = await fx.issue();
    expect(errorsOf(await verify(await fx.present(credential, { kb: { iat: nowSeconds() - YEAR } })))).toEqual(['holderBinding:holder_binding.iat_invalid']);
    expect(errorsOf(await verify(await fx.present(credential, { kb: { iat: nowSeconds() + YEAR } })))).toEqual(['holderBinding:holder_binding.iat_invalid']);
  });

  it('honours a configured KB-JWT max age', async () => {
    const strict = localVerifier({ trustAnchors: [ca.pem], kbJwtMaxAgeMs: 1_000, clockSkewMs: 0 });
    const raw = await fx.present(await fx.issue(), { kb: { iat: nowSeconds() - 600 } });
    expect(errorsOf(await verify(raw, {}, strict))).toEqual(['holderBinding:holder_binding.iat_invalid']);
    expect(errorsOf(await verify(raw))).toEqual(['holderBinding:holder_binding.iat_invalid']);
    expect(errorsOf(await verify(raw, {}, localVerifier({ trustAnchors: [ca.pem], kbJwtMaxAgeMs: 3_600_000 })))).toEqual([]);
  });

  it('rejects a disclosure that no digest references', async () => {
    const raw = await fx.present(await fx.issue());
    const parts = raw.split('~');
    const extra = Buffer.from(JSON.stringify(['c2FsdA', 'nickname', 'Eri'])).toString('base64url');
    const tampered = [parts[0], extra, ...parts.slice(1)].join('~');
    const results = await verify(tampered);
    expect(errorsOf(results)).toEqual(['proof:proof.disclosure_invalid']);
    expect(results[0]!.error!.detail).toContain('not referenced');
  });

  it('requires holder binding by default, allows its absence when the query says false, but not under HAIP', async () => {
    const raw = await fx.present(await fx.issue(), { kb: false });
    expect(errorsOf(await verify(raw))).toEqual(['holderBinding:holder_binding.missing']);
    expect(errorsOf(await verify(raw, { holderBindingRequired: { pid: false } }))).toEqual([]);
    expect(errorsOf(await verify(raw, { holderBindingRequired: { pid: false }, profile: 'haip' }))).toEqual(['holderBinding:holder_binding.missing']);
  });

  it('rejects an algorithm outside allowedAlgs', async () => {
    const es384Only = localVerifier({ trustAnchors: [ca.pem], allowedAlgs: ['ES384'] });
    expect(errorsOf(await verify(await fx.present(await fx.issue()), {}, es384Only))).toEqual(['proof:proof.algorithm_not_allowed']);
  });

  it('rejects a KB-JWT whose typ is not kb+jwt (holder_binding.invalid)', async () => {
    const credential = await fx.issue();
    // Control: the hand-built KB-JWT with typ kb+jwt is accepted, so only the typ decides below.
    expect(errorsOf(await verify(await fx.present(credential, { kb: { header: {} } })))).toEqual([]);
    for (const typ of ['JWT', 'dc+sd-jwt', undefined]) {
      const results = await verify(await fx.present(credential, { kb: { header: { typ } } }));
      expect(errorsOf(results), `typ ${String(typ)}`).toEqual(['holderBinding:holder_binding.invalid']);
      expect(results[3]!.error!.detail).toContain('kb+jwt');
    }
  });

  it('accepts the issuer typ vc+sd-jwt (and dc+sd-jwt); rejects any other or a missing typ (proof.typ_invalid)', async () => {
    for (const typ of ['dc+sd-jwt', 'vc+sd-jwt']) {
      const credential = await fx.issue({ header: { typ } });
      expect(JSON.parse(Buffer.from(credential.split('.')[0]!, 'base64url').toString()).typ).toBe(typ);
      expect(errorsOf(await verify(await fx.present(credential))), `typ ${typ}`).toEqual([]);
    }
    for (const typ of ['JWT', 'example+sd-jwt', 'vc+jwt', 'kb+jwt', undefined]) {
      const results = await verify(await fx.present(await fx.issue({ header: { typ } })));
      expect(errorsOf(results), `typ ${String(typ)}`).toEqual(['proof:proof.typ_invalid']);
      expect(results).toHaveLength(1);
    }
  });

  it('HAIP: rejects an issuer JWT signed with ES384 (proof.algorithm_not_allowed); accepted outside HAIP', async () => {
    const p384 = await ca.issue({ subject: 'CN=PID Issuer ES384', keys: await generateTestKeys('P-384') });
    const raw = await fx.present(await fx.issue({ alg: 'ES384', issuerKeys: p384, header: { x5c: [p384.x5c] } }));
    const open = await verify(raw);
    expect(errorsOf(open)).toEqual([]);
    expect(open[0]!.data).toMatchObject({ alg: 'ES384' });
    const haip = await verify(raw, { profile: 'haip' });
    expect(errorsOf(haip)).toEqual(['proof:proof.algorithm_not_allowed']);
    expect(haip[0]!.error!.detail).toContain('ES384');
  });

  it('HAIP: rejects a KB-JWT signed with ES384 (holderBinding proof.algorithm_not_allowed); accepted outside HAIP', async () => {
    const holder384 = await generateTestKeys('P-384');
    const raw = await fx.present(await fx.issue({ cnf: holder384.publicJwk }), { holderKeys: holder384, kb: { alg: 'ES384' } });
    const open = await verify(raw);
    expect(errorsOf(open)).toEqual([]);
    expect(open[3]!.data).toMatchObject({ method: 'kb-jwt', alg: 'ES384' });
    expect(errorsOf(await verify(raw, { profile: 'haip' }))).toEqual(['holderBinding:proof.algorithm_not_allowed']);
  });

  it('requires x5c under HAIP', async () => {
    const credential = await fx.issue({ header: { x5c: undefined, kid: 'did:jwk:abc#0' } });
    expect(errorsOf(await verify(await fx.present(credential), { profile: 'haip' }))).toEqual(['proof:trusted_issuer.x5c_required']);
  });

  it('rejects an expired credential and a not-yet-valid credential', async () => {
    const expired = await fx.issue({ claims: { iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 } });
    expect(errorsOf(await verify(await fx.present(expired)))).toEqual(['notAfter:validity.expired']);
    const future = await fx.issue({ claims: { nbf: nowSeconds() + 3600 } });
    expect(errorsOf(await verify(await fx.present(future)))).toEqual(['notBefore:validity.not_yet_valid']);
  });

  it('checks transaction data hashes for entries addressed to the query', async () => {
    const entry = Buffer.from(JSON.stringify({ type: 'payment', credential_ids: ['pid'], amount: '10' })).toString('base64url');
    const otherEntry = Buffer.from(JSON.stringify({ type: 'payment', credential_ids: ['other'] })).toString('base64url');
    const hash = createHash('sha256').update(entry).digest('base64url');
    const credential = await fx.issue();
    const bound = await fx.present(credential, { kb: { extra: { transaction_data_hashes: [hash], transaction_data_hashes_alg: 'sha-256' } } });
    expect(errorsOf(await verify(bound, { transactionData: [entry, otherEntry] }))).toEqual([]);
    const unbound = await fx.present(credential);
    expect(errorsOf(await verify(unbound, { transactionData: [entry] }))).toEqual(['holderBinding:holder_binding.transaction_data_mismatch']);
    expect(errorsOf(await verify(unbound, { transactionData: [otherEntry] }))).toEqual([]);
    // Transaction data needs a KB-JWT even when the query waived holder binding.
    const noKb = await fx.present(credential, { kb: false });
    expect(errorsOf(await verify(noKb, { transactionData: [entry], holderBindingRequired: { pid: false } }))).toEqual(['holderBinding:holder_binding.missing']);
  });

  it('accepts only sha-256 transaction data hashes when the entry omits transaction_data_hashes_alg', async () => {
    const entry = Buffer.from(JSON.stringify({ type: 'payment', credential_ids: ['pid'] })).toString('base64url');
    const sha512 = createHash('sha512').update(entry).digest('base64url');
    const credential = await fx.issue();
    const raw = await fx.present(credential, { kb: { extra: { transaction_data_hashes: [sha512], transaction_data_hashes_alg: 'sha-512' } } });
    expect(errorsOf(await verify(raw, { transactionData: [entry] }))).toEqual(['holderBinding:holder_binding.transaction_data_mismatch']);
    const allowed = Buffer.from(JSON.stringify({ type: 'payment', credential_ids: ['pid'], transaction_data_hashes_alg: ['sha-512'] })).toString('base64url');
    const rawAllowed = await fx.present(credential, { kb: { extra: { transaction_data_hashes: [createHash('sha512').update(allowed).digest('base64url')], transaction_data_hashes_alg: 'sha-512' } } });
    expect(errorsOf(await verify(rawAllowed, { transactionData: [allowed] }))).toEqual([]);
  });

  it('HAIP: rejects x5c [anchor, anchor] and x5c [leaf, anchor] (no trust anchor in x5c)', async () => {
    const pinned = await createSelfSignedLeaf('CN=Pinned PID Issuer');
    const pinnedVerifier = localVerifier({ trustAnchors: [ca.pem, pinned.pem] });
    const doubled = await fx.present(await fx.issue({ issuerKeys: pinned, header: { x5c: [pinned.x5c, pinned.x5c] } }));
    expect(errorsOf(await verify(doubled, { profile: 'haip' }, pinnedVerifier))).toEqual(['proof:trusted_issuer.chain_invalid']);
    const single = await fx.present(await fx.issue({ issuerKeys: pinned, header: { x5c: [pinned.x5c] } }));
    expect(errorsOf(await verify(single, { profile: 'haip' }, pinnedVerifier))).toEqual(['proof:trusted_issuer.chain_invalid']);
    const withAnchor = await fx.present(await fx.issue({ header: { x5c: [fx.issuerCert.x5c, ca.x5c] } }));
    expect(errorsOf(await verify(withAnchor, { profile: 'haip' }))).toEqual(['proof:trusted_issuer.chain_invalid']);
    expect(errorsOf(await verify(withAnchor))).toEqual([]);
  });

  it('rejects the trust anchor CA itself signing the credential, with x5c [anchor] or [anchor, anchor]', async () => {
    for (const x5c of [[ca.x5c], [ca.x5c, ca.x5c]]) {
      const raw = await fx.present(await fx.issue({ issuerKeys: ca, header: { x5c } }));
      expect(errorsOf(await verify(raw))).toEqual(['proof:trusted_issuer.chain_invalid']);
    }
  });

  it('binds an https iss to the dNSName / URI SANs of the x5c leaf when it has any', async () => {
    const dnsLeaf = await ca.issue({ subject: 'CN=SAN Issuer', extensions: [new SubjectAlternativeNameExtension([{ type: 'dns', value: 'issuer.example' }])] });
    const issue = (iss: string, leaf = dnsLeaf) => fx.issue({ issuerKeys: leaf, header: { x5c: [leaf.x5c] }, claims: { iss } }).then((c) => fx.present(c));
    expect(errorsOf(await verify(await issue('https://issuer.example')))).toEqual([]);
    expect(errorsOf(await verify(await issue('https://evil.example')))).toEqual(['proof:proof.issuer_mismatch']);
    const uriLeaf = await ca.issue({ subject: 'CN=URI Issuer', extensions: [new SubjectAlternativeNameExtension([{ type: 'url', value: 'https://pid.example/issuer' }])] });
    expect(errorsOf(await verify(await issue('https://pid.example/issuer', uriLeaf)))).toEqual([]);
    expect(errorsOf(await verify(await issue('https://other.example/issuer', uriLeaf)))).toEqual(['proof:proof.issuer_mismatch']);
    // The default fixture leaf has no SANs: nothing to compare, the anchor vouches for it.
    expect(errorsOf(await verify(await fx.present(await fx.issue({ claims: { iss: 'https://any.example' } }))))).toEqual([]);
  });

  it('rejects a DID kid when iss is not that DID (the key must belong to the issuer)', async () => {
    const signer = await didJwk();
    const issue = (iss: string) => fx.issue({ issuerKeys: { ...signer, keys: undefined as never }, header: { x5c: undefined, kid: signer.kid }, claims: { iss } }).then((c) => fx.present(c));
    expect(errorsOf(await verify(await issue(signer.did)))).toEqual([]);
    expect(errorsOf(await verify(await issue('https://university.example')))).toEqual(['proof:proof.issuer_mismatch']);
    expect(errorsOf(await verify(await issue(signer.kid)))).toEqual(['proof:proof.issuer_mismatch']);
    const other = await didJwk();
    expect(errorsOf(await verify(await issue(other.did)))).toEqual(['proof:did.key_not_found']);
  });

  it('never echoes the nonce or the token in error details', async () => {
    const raw = await fx.present(await fx.issue(), { kb: { nonce: 'secret-wrong-nonce' } });
    const text = JSON.stringify(await verify(raw));
    expect(text).not.toContain('secret-wrong-nonce');
    expect(text).not.toContain(NONCE);
    expect(text).not.toContain(raw.split('~')[0]!.slice(0, 40));
    expect(CLIENT_ID).toBeTruthy();
  });

  it('throws when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(verifier.verify(verifyInput([presentationOf(await fx.present(await fx.issue()))]), { signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('localVerifier: SD-JWT VC decoded by core in this process', () => {
  it('verifies a raw swapped in after core decoded another one from that raw, not the earlier decoding', async () => {
    const presentation = coreParsedSdJwt(await fx.present(await fx.issue()));
    presentation.raw = await fx.present(await fx.issue({ issuerKeys: await generateTestKeys() }));
    const results = await verifier.verify(verifyInput([presentation]), { signal: signal() });
    expect(errorsOf(results)).toEqual(['proof:proof.signature_invalid']);
  });
});

describe('localVerifier options', () => {
  it('fails fast on invalid PEM and bad values with a ConfigError', () => {
    expect(() => localVerifier({ trustAnchors: ['not a pem'] })).toThrow(ConfigError);
    expect(() => localVerifier({ trustAnchors: ['not a pem'] })).toThrow(/trustAnchors\.0/);
    expect(() => localVerifier({ trustAnchors: [], clockSkewMs: -1 })).toThrow(/clockSkewMs/);
    expect(() => localVerifier({ trustAnchors: [], allowedAlgs: ['none' as never] })).toThrow(/allowedAlgs/);
  });
});

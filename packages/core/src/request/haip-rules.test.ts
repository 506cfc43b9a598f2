import { beforeAll, describe, expect, it } from 'vitest';
import { AuthorizerError } from '../errors/authorizer-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { parseCreateAuthorizationBody } from './create-authorization-body.js';
import { enforceHaipOnCreate } from './haip-rules.js';
import { loadSigningMaterial, type SigningMaterial } from './signing-material.js';
import { caLeafSigningInput, mdocDcql, sdJwtDcql, selfSignedSigningInput } from './__fixtures__/request-fixtures.js';

let signing: SigningMaterial;
beforeAll(async () => {
  signing = await loadSigningMaterial((await generateDevSigningKey()).signing);
});

/** One identity signing under `clientIdPrefix` with `material`'s chain. */
const single = (clientIdPrefix: 'x509_hash' | 'x509_san_dns', material: SigningMaterial) => ({ clientIdPrefix, signers: [{ ...material, clientIdPrefix }] });

const haip = (extra: Record<string, unknown> = {}) =>
  parseCreateAuthorizationBody({ profile: 'haip', responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql }, ...extra });

function codeOf(fn: () => void): { code: ErrorCode; errors: unknown[] } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AuthorizerError);
    return { code: (e as AuthorizerError).code, errors: (e as AuthorizerError).errors ?? [] };
  }
  throw new Error('expected an AuthorizerError');
}

describe('enforceHaipOnCreate', () => {
  it('accepts a compliant redirect request and a compliant DC API request', () => {
    expect(() => enforceHaipOnCreate(haip(), single('x509_hash', signing))).not.toThrow();
    const dc = haip({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-signed', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: mdocDcql } });
    expect(() => enforceHaipOnCreate(dc, single('x509_hash', signing))).not.toThrow();
  });

  it('does nothing without profile haip', () => {
    const body = parseCreateAuthorizationBody({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'p', input_descriptors: [{ id: 'a' }] } } });
    expect(() => enforceHaipOnCreate(body, single('x509_san_dns', { ...signing, leafSelfSigned: true }))).not.toThrow();
  });

  it('haip.response_type: rejects vp_token id_token', () => {
    expect(codeOf(() => enforceHaipOnCreate(haip({ responseType: 'vp_token id_token' }), single('x509_hash', signing))).code).toBe('haip.response_type');
  });

  it('haip.response_mode: rejects unencrypted modes', () => {
    expect(codeOf(() => enforceHaipOnCreate(haip({ responseMode: 'direct_post' }), single('x509_hash', signing))).code).toBe('haip.response_mode');
    const dc = haip({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned' });
    expect(codeOf(() => enforceHaipOnCreate(dc, single('x509_hash', signing))).code).toBe('haip.response_mode');
  });

  it('haip.query_type: rejects Presentation Exchange', () => {
    const body = haip({ query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'p', input_descriptors: [{ id: 'a' }] } } });
    expect(codeOf(() => enforceHaipOnCreate(body, single('x509_hash', signing))).code).toBe('haip.query_type');
  });

  it('haip.client_id_prefix: rejects x509_san_dns', () => {
    expect(codeOf(() => enforceHaipOnCreate(haip(), single('x509_san_dns', signing))).code).toBe('haip.client_id_prefix');
  });

  it('haip.certificate_chain: rejects a self-signed leaf and a chain with the anchor', async () => {
    const self = await loadSigningMaterial(await selfSignedSigningInput());
    expect(codeOf(() => enforceHaipOnCreate(haip(), single('x509_hash', self))).code).toBe('haip.certificate_chain');
    const dev = await generateDevSigningKey();
    const withAnchor = await loadSigningMaterial({ ...dev.signing, certificateChain: [dev.leafCertificatePem, dev.rootCertificatePem] });
    expect(codeOf(() => enforceHaipOnCreate(haip(), single('x509_hash', withAnchor))).code).toBe('haip.certificate_chain');
  });

  it('applies the signing rules to every identity, naming the later ones by index', async () => {
    const self = await loadSigningMaterial(await selfSignedSigningInput());
    const signers = [{ ...signing, clientIdPrefix: 'x509_hash' as const }, { ...self, clientIdPrefix: 'x509_san_dns' as const }];
    const { code, errors } = codeOf(() => enforceHaipOnCreate(haip(), { clientIdPrefix: 'x509_hash', signers }));
    expect(code).toBe('haip.client_id_prefix');
    expect(errors).toEqual([
      { code: 'haip.client_id_prefix', pointer: '', detail: 'HAIP requires the x509_hash client id prefix; signing identity 1 signs under x509_san_dns' },
      { code: 'haip.certificate_chain', pointer: '', detail: 'HAIP forbids a self-signed request-signing certificate (signing identity 1)' },
    ]);
    // The same compliant identity twice passes.
    expect(() => enforceHaipOnCreate(haip(), { clientIdPrefix: 'x509_hash', signers: [signers[0]!, signers[0]!] })).not.toThrow();
  });

  it('haip.certificate_chain: rejects a request-signing certificate that is a CA certificate', async () => {
    const caLeaf = await loadSigningMaterial(await caLeafSigningInput());
    expect(caLeaf.leafSelfSigned).toBe(false);
    expect(caLeaf.chainIncludesAnchor).toBe(false);
    const { code, errors } = codeOf(() => enforceHaipOnCreate(haip(), single('x509_hash', caLeaf)));
    expect(code).toBe('haip.certificate_chain');
    expect(errors).toEqual([expect.objectContaining({ code: 'haip.certificate_chain', detail: expect.stringContaining('not a CA certificate') })]);
    expect(signing.leafIsCa).toBe(false);
  });

  it('haip.credential_format: rejects formats other than dc+sd-jwt and mso_mdoc', () => {
    const body = haip({ query: { type: 'DCQL', dcql: { credentials: [{ id: 'w3c', format: 'jwt_vc_json' }] } } });
    const { code, errors } = codeOf(() => enforceHaipOnCreate(body, single('x509_hash', signing)));
    expect(code).toBe('haip.credential_format');
    expect(errors).toEqual([expect.objectContaining({ pointer: '/query/dcql/credentials/0/format' })]);
  });

  it('haip.holder_binding: rejects require_cryptographic_holder_binding false', () => {
    const body = haip({ query: { type: 'DCQL', dcql: { credentials: [{ ...sdJwtDcql.credentials[0], require_cryptographic_holder_binding: false }] } } });
    expect(codeOf(() => enforceHaipOnCreate(body, single('x509_hash', signing))).code).toBe('haip.holder_binding');
  });

  it('lists every violation, each with its own code, and throws the first', () => {
    const body = haip({ responseType: 'vp_token id_token', responseMode: 'direct_post' });
    const { code, errors } = codeOf(() => enforceHaipOnCreate(body, single('x509_san_dns', signing)));
    expect(code).toBe('haip.response_type');
    expect(errors.map((e) => (e as { code: string }).code)).toEqual(['haip.response_type', 'haip.response_mode', 'haip.client_id_prefix']);
  });

  it('skips the signing rules for unsigned DC API requests (no client_id, no certificate)', () => {
    const dc = haip({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-unsigned' });
    expect(() => enforceHaipOnCreate(dc, single('x509_san_dns', { ...signing, leafSelfSigned: true }))).not.toThrow();
  });

  it('haip.wallet_metadata: checks wallet metadata given at creation', () => {
    const body = haip({ walletMetadata: { vp_formats_supported: { mso_mdoc: {} } } });
    expect(codeOf(() => enforceHaipOnCreate(body, single('x509_hash', signing))).code).toBe('haip.wallet_metadata');
  });
});

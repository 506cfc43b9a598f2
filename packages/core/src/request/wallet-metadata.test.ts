import { describe, expect, it } from 'vitest';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { checkWalletMetadata, normalizeWalletMetadata, parseWalletMetadataParam, walletMetadataShapeIssues } from './wallet-metadata.js';

const haipCtx = { haip: true, clientIdPrefix: 'x509_hash', requireClientIdPrefix: false, formats: ['dc+sd-jwt', 'mso_mdoc'] };
const goodWallet = {
  issuer: 'https://wallet.example',
  client_id_prefixes_supported: ['x509_hash', 'x509_san_dns'],
  request_object_signing_alg_values_supported: ['ES256'],
  response_modes_supported: ['direct_post.jwt'],
  authorization_encryption_alg_values_supported: ['ECDH-ES'],
  authorization_encryption_enc_values_supported: ['A256GCM'],
  vp_formats_supported: {
    'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256', 'ES384'], 'kb-jwt_alg_values': ['ES256'] },
    mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-9] },
  },
};

function failure(fn: () => void): AuthorizerError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AuthorizerError);
    return e as AuthorizerError;
  }
  throw new Error('expected an AuthorizerError');
}

describe('parseWalletMetadataParam', () => {
  it('parses a JSON object and treats absent/empty as undefined', () => {
    expect(parseWalletMetadataParam(undefined)).toBeUndefined();
    expect(parseWalletMetadataParam('  ')).toBeUndefined();
    expect(parseWalletMetadataParam('{"issuer":"x"}')).toEqual({ issuer: 'x' });
  });

  it('rejects invalid JSON and non-objects without echoing the input', () => {
    const e = failure(() => parseWalletMetadataParam('{secret-ish'));
    expect(e.code).toBe('authorization.invalid_wallet_metadata');
    expect(e.message).not.toContain('secret-ish');
    expect(failure(() => parseWalletMetadataParam('[1]')).code).toBe('authorization.invalid_wallet_metadata');
    expect(failure(() => parseWalletMetadataParam('null')).code).toBe('authorization.invalid_wallet_metadata');
  });
});

describe('checkWalletMetadata', () => {
  it('accepts a HAIP-capable wallet', () => {
    expect(() => checkWalletMetadata(goodWallet, haipCtx)).not.toThrow();
  });

  it('reports shape problems as authorization.invalid_wallet_metadata', () => {
    const e = failure(() => checkWalletMetadata({ response_modes_supported: 'direct_post.jwt', vp_formats_supported: [], jwks: {} }, haipCtx));
    expect(e.code).toBe('authorization.invalid_wallet_metadata');
    expect(e.errors?.map((x) => x.pointer)).toEqual(['/response_modes_supported', '/vp_formats_supported', '/jwks']);
  });

  it('lists every failed HAIP check', () => {
    const e = failure(() =>
      checkWalletMetadata(
        {
          client_id_prefixes_supported: ['x509_san_dns'],
          request_object_signing_alg_values_supported: ['EdDSA'],
          response_modes_supported: ['direct_post'],
          authorization_encryption_alg_values_supported: ['RSA-OAEP'],
          authorization_encryption_enc_values_supported: ['A128CBC-HS256'],
          vp_formats_supported: { 'dc+sd-jwt': { 'kb-jwt_alg_values': ['EdDSA'] } },
        },
        haipCtx,
      ),
    );
    expect(e.code).toBe('haip.wallet_metadata');
    expect(e.errors?.map((x) => x.pointer)).toEqual([
      '/client_id_prefixes_supported',
      '/request_object_signing_alg_values_supported',
      '/response_modes_supported',
      '/authorization_encryption_alg_values_supported',
      '/authorization_encryption_enc_values_supported',
      '/vp_formats_supported/dc+sd-jwt',
      '/vp_formats_supported/mso_mdoc',
    ]);
  });

  it('requires vp_formats_supported under HAIP and an ES256 overlap for mdoc', () => {
    expect(failure(() => checkWalletMetadata({}, haipCtx)).errors?.[0]?.pointer).toBe('/vp_formats_supported');
    const e = failure(() => checkWalletMetadata({ vp_formats_supported: { mso_mdoc: { issuerauth_alg_values: [-35] } } }, { ...haipCtx, formats: ['mso_mdoc'] }));
    expect(e.errors?.[0]?.detail).toContain('-7, -9');
  });

  it('checks the client id prefix only when listed, unless required', () => {
    const plain = { haip: false, clientIdPrefix: 'x509_hash', requireClientIdPrefix: false, formats: ['dc+sd-jwt'] };
    expect(() => checkWalletMetadata({}, plain)).not.toThrow();
    expect(failure(() => checkWalletMetadata({}, { ...plain, requireClientIdPrefix: true })).code).toBe('authorization.invalid_wallet_metadata');
    expect(failure(() => checkWalletMetadata({ client_id_prefixes_supported: ['pre-registered'] }, plain)).code).toBe('authorization.invalid_wallet_metadata');
    // Legacy wallets name the list client_id_schemes_supported.
    expect(() => checkWalletMetadata({ client_id_schemes_supported: ['x509_hash'] }, { ...plain, requireClientIdPrefix: true })).not.toThrow();
  });

  it('does not apply HAIP capability checks outside HAIP', () => {
    expect(() => checkWalletMetadata({ request_object_signing_alg_values_supported: ['EdDSA'] }, { ...haipCtx, haip: false })).not.toThrow();
  });
});

describe('wallet metadata with null members', () => {
  // Shaped like what wallets built on generated serializers post: unset optional members as null.
  const realistic = {
    issuer: null,
    authorization_endpoint: 'haip-vp:',
    client_id_prefixes_supported: ['x509_hash', 'x509_san_dns'],
    client_id_schemes_supported: null,
    request_object_signing_alg_values_supported: ['ES256'],
    response_types_supported: ['vp_token'],
    response_modes_supported: ['direct_post.jwt', 'dc_api.jwt'],
    authorization_encryption_alg_values_supported: ['ECDH-ES'],
    authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
    jwks: null,
    vp_formats_supported: {
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': null },
      mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7], alg: null },
      jwt_vc_json: null,
    },
  };

  it('treats null members as absent in the shape check and the HAIP checks', () => {
    expect(walletMetadataShapeIssues(realistic)).toEqual([]);
    expect(() => checkWalletMetadata(realistic, haipCtx)).not.toThrow();
    expect(() => checkWalletMetadata(realistic, { ...haipCtx, haip: false, requireClientIdPrefix: true })).not.toThrow();
  });

  it('still refuses wrongly typed members next to nulls', () => {
    const e = failure(() => checkWalletMetadata({ ...realistic, response_modes_supported: 'direct_post.jwt' }, haipCtx));
    expect(e.code).toBe('authorization.invalid_wallet_metadata');
    expect(e.errors?.map((x) => x.pointer)).toEqual(['/response_modes_supported']);
  });

  it('keeps a member named __proto__ as a plain member next to nulls and without them', () => {
    for (const extra of ['', ', "jwks": null']) {
      const posted = parseWalletMetadataParam(`{"__proto__": {"vp_formats_supported": {}}, "response_modes_supported": ["direct_post.jwt"]${extra}}`)!;
      const normalized = normalizeWalletMetadata(posted);
      expect(Object.getPrototypeOf(normalized)).toBe(Object.prototype);
      expect(Object.keys(normalized)).toEqual(['__proto__', 'response_modes_supported']);
      // Inherited members do not count as sent: vp_formats_supported is still missing.
      expect(failure(() => checkWalletMetadata(posted, haipCtx)).errors?.map((x) => x.pointer)).toEqual(['/vp_formats_supported']);
    }
  });

  it('a null format entry means the format is not offered', () => {
    const e = failure(() => checkWalletMetadata(realistic, { ...haipCtx, formats: ['jwt_vc_json'] }));
    expect(e.code).toBe('haip.wallet_metadata');
    expect(e.errors?.[0]?.pointer).toBe('/vp_formats_supported/jwt_vc_json');
  });
});

describe('wallet metadata algorithms are compared with what we advertise', () => {
  const es384Wallet = { vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES384'], 'kb-jwt_alg_values': ['ES384'] }, mso_mdoc: { issuerauth_alg_values: [-35], deviceauth_alg_values: [-35] } } };

  it('accepts a wallet that shares a non-ES256 algorithm with the verifier', () => {
    expect(() => checkWalletMetadata(es384Wallet, { ...haipCtx, algorithms: { jose: ['ES256', 'ES384'], cose: [-7, -35] } })).not.toThrow();
  });

  it('refuses it when the verifier accepts ES256 only (the default)', () => {
    const e = failure(() => checkWalletMetadata(es384Wallet, haipCtx));
    expect(e.code).toBe('haip.wallet_metadata');
    expect(e.errors?.map((x) => x.pointer)).toEqual(['/vp_formats_supported/dc+sd-jwt', '/vp_formats_supported/mso_mdoc']);
  });
});

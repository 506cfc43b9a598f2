import { describe, expect, it } from 'vitest';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { parseCreateAuthorizationBody, transactionDataOf } from './create-authorization-body.js';
import { b64urlJson, mdocDcql, sdJwtDcql } from './__fixtures__/request-fixtures.js';

const errorsOf = (body: unknown) => {
  try {
    parseCreateAuthorizationBody(body);
  } catch (e) {
    expect(e).toBeInstanceOf(AuthorizerError);
    expect((e as AuthorizerError).code).toBe('request.invalid_body');
    expect((e as AuthorizerError).status).toBe(400);
    return (e as AuthorizerError).errors ?? [];
  }
  throw new Error('expected request.invalid_body');
};
const pointers = (body: unknown) => errorsOf(body).map((e) => e.pointer);

const dcqlBody = (dcql: unknown = sdJwtDcql, extra: Record<string, unknown> = {}) => ({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql }, ...extra });

describe('parseCreateAuthorizationBody: direct_post modes', () => {
  it('accepts DCQL and defaults responseType, keeping unknown DCQL members', () => {
    const body = parseCreateAuthorizationBody(dcqlBody({ ...sdJwtDcql, credentials: [{ ...sdJwtDcql.credentials[0], x_custom: 1 }] }));
    expect(body.responseType).toBe('vp_token');
    expect(body.responseMode).toBe('direct_post.jwt');
    expect(body.query.type === 'DCQL' && body.query.dcql.credentials[0]?.x_custom).toBe(1);
  });

  it('accepts Presentation Exchange and vp_token id_token', () => {
    const body = parseCreateAuthorizationBody({
      responseMode: 'direct_post',
      responseType: 'vp_token id_token',
      query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'pd', input_descriptors: [{ id: 'a', constraints: {} }] } },
      redirectUri: 'https://rp.example/done',
    });
    expect(body.responseType).toBe('vp_token id_token');
    expect(body.responseMode === 'direct_post' && body.redirectUri).toBe('https://rp.example/done');
  });

  it('rejects non-objects and unknown response modes', () => {
    expect(pointers(null)).toEqual(['']);
    expect(pointers([])).toEqual(['']);
    expect(pointers({ responseMode: 'fragment', query: {} })).toEqual(['/responseMode']);
  });

  it('explains that scope-alias queries are not supported', () => {
    const errors = errorsOf({ responseMode: 'direct_post', query: { type: 'scope-alias', scope: 'pid' } });
    expect(errors).toEqual([{ pointer: '/query/type', detail: expect.stringContaining('not supported') }]);
  });

  it('points at every structural DCQL problem', () => {
    const ps = pointers(
      dcqlBody({
        credentials: [
          { id: 'bad id', format: 'dc+sd-jwt', meta: { vct_values: ['x'] } },
          { id: 'b', meta: {}, claims: [{ path: [] }] },
        ],
      }),
    );
    expect(ps).toEqual(expect.arrayContaining(['/query/dcql/credentials/0/id', '/query/dcql/credentials/1/format', '/query/dcql/credentials/1/claims/0/path']));
    expect(pointers(dcqlBody({ credentials: [] }))).toEqual(['/query/dcql/credentials']);
    expect(errorsOf(dcqlBody({ credentials: [{ id: 'x' }] }))).toEqual([{ pointer: '/query/dcql/credentials/0/format', detail: 'format is required' }]);
  });

  it('checks DCQL cross references: unique ids, claim_sets, credential_sets, meta per format', () => {
    const errors = errorsOf(
      dcqlBody({
        credentials: [
          { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [] }, claims: [{ id: 'a', path: ['a'] }, { id: 'a', path: ['b'] }], claim_sets: [['a', 'zz']] },
          { id: 'pid', format: 'mso_mdoc', meta: {}, claims: [{ path: ['ns', 'el', 'extra'] }] },
          { id: 'c', format: 'dc+sd-jwt', claim_sets: [['x']] },
        ],
        credential_sets: [{ options: [['pid', 'nope']] }],
      }),
    );
    expect(errors.map((e) => e.pointer)).toEqual(
      expect.arrayContaining([
        '/query/dcql/credentials/0/meta/vct_values',
        '/query/dcql/credentials/0/claims/1/id',
        '/query/dcql/credentials/0/claim_sets/0/1',
        '/query/dcql/credentials/1/id',
        '/query/dcql/credentials/1/meta/doctype_value',
        '/query/dcql/credentials/1/claims/0/path',
        '/query/dcql/credentials/2/claim_sets',
        '/query/dcql/credential_sets/0/options/0/1',
      ]),
    );
    expect(errors.find((e) => e.pointer === '/query/dcql/credential_sets/0/options/0/1')?.detail).toContain('nope');
  });

  it('rejects meta that is not an object', () => {
    expect(pointers(dcqlBody({ credentials: [{ id: 'p', format: 'dc+sd-jwt', meta: [] }] }))).toEqual(['/query/dcql/credentials/0/meta']);
  });

  it('requires claim ids when claim_sets is used', () => {
    expect(pointers(dcqlBody({ credentials: [{ id: 'p', format: 'dc+sd-jwt', claims: [{ path: ['a'] }], claim_sets: [['a']] }] }))).toEqual(
      expect.arrayContaining(['/query/dcql/credentials/0/claims/0/id']),
    );
  });

  it('checks Presentation Exchange: id and unique input descriptors', () => {
    const pe = (pd: unknown) => ({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: pd } });
    expect(pointers(pe({ input_descriptors: [{ id: 'a' }] }))).toEqual(['/query/presentationDefinition/id']);
    expect(pointers(pe({ id: 'x', input_descriptors: [] }))).toEqual(['/query/presentationDefinition/input_descriptors']);
    expect(pointers(pe({ id: 'x', input_descriptors: [{ id: 'a' }, { id: 'a' }] }))).toEqual(['/query/presentationDefinition/input_descriptors/1/id']);
  });

  it('validates nonce charset and length', () => {
    expect(parseCreateAuthorizationBody(dcqlBody(sdJwtDcql, { nonce: 'abcdefghijklmnop-._~' })).nonce).toBe('abcdefghijklmnop-._~');
    expect(pointers(dcqlBody(sdJwtDcql, { nonce: 'short' }))).toEqual(['/nonce']);
    expect(pointers(dcqlBody(sdJwtDcql, { nonce: 'has space in it 12345' }))).toEqual(['/nonce']);
    expect(pointers(dcqlBody(sdJwtDcql, { nonce: 'a'.repeat(257) }))).toEqual(['/nonce']);
  });

  it('checks the shape of walletMetadata given at creation', () => {
    expect(pointers(dcqlBody(sdJwtDcql, { walletMetadata: { client_id_prefixes_supported: 'x509_hash' } }))).toEqual(['/walletMetadata/client_id_prefixes_supported']);
    expect(pointers(dcqlBody(sdJwtDcql, { walletMetadata: [] }))).toEqual(['/walletMetadata']);
  });

  it('validates redirectUri and profile', () => {
    expect(pointers(dcqlBody(sdJwtDcql, { redirectUri: 'ftp://x.example/' }))).toEqual(['/redirectUri']);
    expect(pointers(dcqlBody(sdJwtDcql, { redirectUri: '/relative' }))).toEqual(['/redirectUri']);
    expect(pointers(dcqlBody(sdJwtDcql, { profile: 'other' }))).toEqual(['/profile']);
  });
});

describe('parseCreateAuthorizationBody: transaction data and verifier info', () => {
  const td = b64urlJson({ type: 'payment', credential_ids: ['pid'] });

  it('accepts transaction_data at the top level or in responseTypeParameters', () => {
    expect(transactionDataOf(parseCreateAuthorizationBody(dcqlBody(sdJwtDcql, { transaction_data: [td] })))).toEqual([td]);
    expect(transactionDataOf(parseCreateAuthorizationBody(dcqlBody(sdJwtDcql, { responseTypeParameters: { transaction_data: [td] } })))).toEqual([td]);
  });

  it('rejects entries that are not base64url JSON, name unknown ids or waive holder binding', () => {
    expect(pointers(dcqlBody(sdJwtDcql, { transaction_data: ['not json!'] }))).toEqual(['/transaction_data/0']);
    expect(pointers(dcqlBody(sdJwtDcql, { transaction_data: [b64urlJson({ type: 'x', credential_ids: ['other'] })] }))).toEqual(['/transaction_data/0']);
    expect(pointers(dcqlBody(sdJwtDcql, { transaction_data: [b64urlJson({ credential_ids: ['pid'] })] }))).toEqual(['/transaction_data/0']);
    const unbound = { credentials: [{ ...sdJwtDcql.credentials[0], require_cryptographic_holder_binding: false }] };
    expect(errorsOf(dcqlBody(unbound, { responseTypeParameters: { transaction_data: [td] } }))[0]).toMatchObject({
      pointer: '/responseTypeParameters/transaction_data/0',
      detail: expect.stringContaining('holder_binding'),
    });
  });

  it('binds an entry without credential_ids to every credential query that keeps holder binding, leaving bound entries byte for byte', () => {
    const loose = b64urlJson({ type: 'payment', amount: '10.00' });
    const dcql = { credentials: [sdJwtDcql.credentials[0], { ...sdJwtDcql.credentials[0], id: 'pid2' }, { ...sdJwtDcql.credentials[0], id: 'free', require_cryptographic_holder_binding: false }] };
    const [bound, kept] = transactionDataOf(parseCreateAuthorizationBody(dcqlBody(dcql, { responseTypeParameters: { transaction_data: [loose, td] } })))!;
    expect(JSON.parse(Buffer.from(bound!, 'base64url').toString('utf8'))).toEqual({ type: 'payment', amount: '10.00', credential_ids: ['pid', 'pid2'] });
    expect(kept).toBe(td);
  });

  it('refuses an entry without credential_ids when requireTransactionDataCredentialIds is set, or when no query keeps holder binding', () => {
    const loose = b64urlJson({ type: 'payment' });
    expect(() => parseCreateAuthorizationBody(dcqlBody(sdJwtDcql, { transaction_data: [loose] }), { requireTransactionDataCredentialIds: true })).toThrow(
      expect.objectContaining({ code: 'request.invalid_body', errors: [expect.objectContaining({ pointer: '/transaction_data/0', detail: expect.stringContaining('credential_ids') })] }),
    );
    const unbound = { credentials: [{ ...sdJwtDcql.credentials[0], require_cryptographic_holder_binding: false }] };
    expect(pointers(dcqlBody(unbound, { transaction_data: [loose] }))).toEqual(['/transaction_data/0']);
  });

  it('rejects two different transaction_data lists', () => {
    const other = b64urlJson({ type: 'other', credential_ids: ['pid'] });
    expect(pointers(dcqlBody(sdJwtDcql, { transaction_data: [td], responseTypeParameters: { transaction_data: [other] } }))).toEqual(['/transaction_data']);
  });

  it('checks verifier_info shape and credential ids', () => {
    const ok = parseCreateAuthorizationBody(dcqlBody(sdJwtDcql, { responseTypeParameters: { verifier_info: [{ format: 'registrar_dataset', data: { a: 1 }, credential_ids: ['pid'] }] } }));
    expect(ok.responseTypeParameters?.verifier_info?.[0]?.format).toBe('registrar_dataset');
    expect(pointers(dcqlBody(sdJwtDcql, { responseTypeParameters: { verifier_info: [{ data: 1 }] } }))).toEqual(
      expect.arrayContaining(['/responseTypeParameters/verifier_info/0/format', '/responseTypeParameters/verifier_info/0/data']),
    );
    expect(pointers(dcqlBody(sdJwtDcql, { responseTypeParameters: { verifier_info: [{ format: 'f', data: 'd', credential_ids: ['zz'] }] } }))).toEqual([
      '/responseTypeParameters/verifier_info/0/credential_ids/0',
    ]);
  });
});

describe('parseCreateAuthorizationBody: DC API', () => {
  const dc = (extra: Record<string, unknown>) => ({ responseMode: 'dc_api.jwt', query: { type: 'DCQL', dcql: mdocDcql }, ...extra });

  it('accepts unsigned without origins and signed with origins', () => {
    expect(parseCreateAuthorizationBody(dc({ protocol: 'openid4vp-v1-unsigned' })).responseType).toBe('vp_token');
    const signed = parseCreateAuthorizationBody(dc({ protocol: 'openid4vp-v1-signed', expectedOrigins: ['https://rp.example', 'http://localhost:3000'] }));
    expect(signed.responseMode === 'dc_api.jwt' && signed.expectedOrigins).toEqual(['https://rp.example', 'http://localhost:3000']);
  });

  it('requires expectedOrigins for signed and multisigned protocols', () => {
    expect(pointers(dc({ protocol: 'openid4vp-v1-signed' }))).toEqual(['/expectedOrigins']);
    expect(pointers(dc({ protocol: 'openid4vp-v1-multisigned' }))).toEqual(['/expectedOrigins']);
    expect(pointers(dc({ protocol: 'openid4vp-v1-signed', expectedOrigins: [] }))).toEqual(['/expectedOrigins']);
  });

  it('rejects origins with paths, trailing slashes or other schemes', () => {
    for (const origin of ['https://rp.example/', 'https://rp.example/path', 'ftp://rp.example', 'javascript:alert(1)', 'data:text/html,x', 'wss://rp.example', 'ws://rp.example', 'https://RP.example', 'https://rp.example:443']) {
      expect(pointers(dc({ protocol: 'openid4vp-v1-signed', expectedOrigins: [origin] })), origin).toEqual(['/expectedOrigins/0']);
    }
  });

  it('rejects Presentation Exchange, vp_token id_token and unknown protocols', () => {
    expect(pointers({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'x', input_descriptors: [{ id: 'a' }] } } })).toEqual([
      '/query/type',
    ]);
    expect(pointers(dc({ protocol: 'openid4vp-v1-unsigned', responseType: 'vp_token id_token' }))).toEqual(['/responseType']);
    expect(pointers(dc({ protocol: 'openid4vp' }))).toEqual(['/protocol']);
    expect(pointers(dc({}))).toEqual(['/protocol']);
  });
});

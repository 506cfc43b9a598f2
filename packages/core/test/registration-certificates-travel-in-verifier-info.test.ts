// registrationCertificates: checked at construction, carried in verifier_info of every signed
// request (OpenID4VP 1.0 section 5.1), merged with a create call's own verifier_info.
import { compactVerify, decodeProtectedHeader, importX509, jwtVerify, decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createAuthorizer, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { DCQL_SD_JWT } from './__fixtures__/test-authorizer.js';
import { accessCertificate, registrar } from './__fixtures__/relying-party-identity.js';
import { configIssuesOf } from './__fixtures__/config-issues.js';

const ORG = 'LEIXG-529900T8BM49AURSDO55';
const claims = { name: 'Example RP', sub: { legal_name: 'Example RP GmbH', id: ORG }, country: 'DE', privacy_policy: 'https://rp.example/privacy', purpose: [{ lang: 'en', value: 'Age check' }] };

const build = (signing: unknown, registrationCertificates: unknown) =>
  createAuthorizer({
    publicBaseUrl: 'https://verifier.example',
    sweepIntervalMs: 0,
    instances: [{ id: 'main', apiKeys: ['k-1234567890'], signing: signing as never, registrationCertificates: registrationCertificates as never, validator: passThroughValidator(), verifier: passThroughVerifier() }],
  });


describe('registration certificates in verifier_info', () => {
  it('ride in the request object, which an independent JOSE library verifies, and in signed DC API requests; a request\'s own entries are merged', async () => {
    const access = await accessCertificate(ORG);
    const reg = await registrar();
    const wrprc = await reg.issue(claims);
    const authorizer = build(access.signing, [wrprc]);
    try {
      const created = (await authorizer.createAuthorization('main', {
        responseMode: 'direct_post.jwt',
        query: { type: 'DCQL', dcql: DCQL_SD_JWT },
        responseTypeParameters: { verifier_info: [{ format: 'attestation_x', data: { note: 'per request' } }] },
      })) as { authorizationId: string };
      const jwt = await authorizer.getRequestObject(created.authorizationId);
      const { payload } = await compactVerify(jwt, await importX509(access.leafPem, 'ES256'));
      const verifierInfo = (JSON.parse(new TextDecoder().decode(payload)) as { verifier_info: { format: string; data: unknown }[] }).verifier_info;
      expect(verifierInfo).toEqual([{ format: 'registration_cert', data: wrprc }, { format: 'attestation_x', data: { note: 'per request' } }]);
      // What a wallet does with it: verify the registration certificate under its own x5c.
      const registered = verifierInfo[0]!.data as string;
      const header = decodeProtectedHeader(registered);
      expect(header.typ).toBe('rc-wrp+jwt');
      const { payload: rc } = await jwtVerify(registered, await importX509(`-----BEGIN CERTIFICATE-----\n${header.x5c![0]}\n-----END CERTIFICATE-----`, 'ES256'), { typ: 'rc-wrp+jwt' });
      expect(rc.sub).toEqual(claims.sub);

      const signed = (await authorizer.createAuthorization('main', { responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-signed', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: DCQL_SD_JWT } })) as {
        digitalCredentialGetRequest: { data: { request: string } };
      };
      expect(decodeJwt(signed.digitalCredentialGetRequest.data.request).verifier_info).toEqual([{ format: 'registration_cert', data: wrprc }]);
      const multi = (await authorizer.createAuthorization('main', { responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-multisigned', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: DCQL_SD_JWT } })) as {
        digitalCredentialGetRequest: { data: { signatures: { protected: string }[] } };
      };
      const protectedHeader = JSON.parse(Buffer.from(multi.digitalCredentialGetRequest.data.signatures[0]!.protected, 'base64url').toString()) as Record<string, unknown>;
      expect(protectedHeader.verifier_info).toEqual([{ format: 'registration_cert', data: wrprc }]);
    } finally {
      await authorizer.close();
    }
  });

  it('keep only the credential queries a request asks for, and are left out when it asks for none of them; a duplicate from the request is not repeated', async () => {
    const access = await accessCertificate(ORG);
    const reg = await registrar();
    const forPid = await reg.issue(claims);
    const forMdl = await reg.issue({ ...claims, name: 'Example RP (mDL)' });
    const authorizer = build(access.signing, [{ jwt: forPid, credentialIds: ['pid', 'other'] }, { jwt: forMdl, credentialIds: ['mdl'] }]);
    try {
      const created = (await authorizer.createAuthorization('main', {
        responseMode: 'direct_post.jwt',
        query: { type: 'DCQL', dcql: DCQL_SD_JWT },
        responseTypeParameters: { verifier_info: [{ format: 'registration_cert', data: forPid, credential_ids: ['pid'] }] },
      })) as { authorizationId: string };
      expect(decodeJwt(await authorizer.getRequestObject(created.authorizationId)).verifier_info).toEqual([{ format: 'registration_cert', data: forPid, credential_ids: ['pid'] }]);
    } finally {
      await authorizer.close();
    }
  });

  it('are refused at construction when expired, for another organisation, not signed under their x5c, of another typ, or when the access certificate names no organisation', async () => {
    const access = await accessCertificate(ORG);
    const reg = await registrar();
    const expired = await new (await import('jose')).SignJWT(claims as never).setProtectedHeader({ alg: 'ES256', typ: 'rc-wrp+jwt', x5c: reg.x5c }).setIssuedAt(Math.floor(Date.now() / 1000) - 7200).setExpirationTime(Math.floor(Date.now() / 1000) - 3600).sign((await (await import('jose')).generateKeyPair('ES256')).privateKey);
    const good = await reg.issue(claims);
    const [h, p] = good.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, name: 'Someone else' })).toString('base64url')}.${good.split('.')[2]}`;
    expect(configIssuesOf(() => build(access.signing, [good]))).toEqual([]);
    const otherOrg = await reg.issue({ ...claims, sub: { id: 'LEIXG-OTHER' } });
    const otherTyp = await reg.issue(claims, { typ: 'JWT' });
    const issues = configIssuesOf(() => build(access.signing, [tampered, otherOrg, otherTyp, `${h}.${p}`, expired]));
    expect(issues).toEqual([
      'instances.0.registrationCertificates.0: does not verify under the first certificate of its x5c',
      'instances.0.registrationCertificates.1: is for organisation LEIXG-OTHER, but the access certificate is for LEIXG-529900T8BM49AURSDO55',
      'instances.0.registrationCertificates.2: has typ "JWT"; a registration certificate has typ "rc-wrp+jwt"',
      expect.stringContaining('instances.0.registrationCertificates.3: must be a compact JWT'),
      // Signed by another key than its x5c names: refused before its dates are looked at.
      'instances.0.registrationCertificates.4: does not verify under the first certificate of its x5c',
    ]);
    const expiredBySigner = await reg.issue({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 });
    expect(configIssuesOf(() => build(access.signing, [expiredBySigner]))[0]).toMatch(/expired at .*ask the registrar for a new one/);
    const { generateDevSigningKey } = await import('@vp-authorizer/keys');
    const unnamed = (await generateDevSigningKey()).signing;
    expect(configIssuesOf(() => build(unnamed, [good]))[0]).toContain('has no organizationIdentifier');
  });
});

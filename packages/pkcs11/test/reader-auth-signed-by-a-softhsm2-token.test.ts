// readerAuth of org-iso-mdoc requests signed by a reader key on a SoftHSM2 token (a dedicated
// reader identity behind the PKCS#11 RequestSigner), checked by a wallet that requires reader
// authentication and trusts the reader CA; the Annex C flow then authorizes.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, type Authorizer } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { createTestIssuer, createTestWallet, type AnnexCGetRequest } from '@vp-authorizer/testing';
import { generatePkcs11Key, openPkcs11Signer, type Pkcs11Signer } from '@vp-authorizer/pkcs11';
import { SOFTHSM_MODULE, startSoftHsm, type SoftHsm } from './__fixtures__/softhsm.js';
import { certificateForKey } from './__fixtures__/certificate-for-key.js';

const PIN = 'pin-reader-4Kd9';
const ORIGIN = 'https://rp.example';
const MDL = 'org.iso.18013.5.1.mDL';
const NS = 'org.iso.18013.5.1';

let hsm: SoftHsm;
let signer: Pkcs11Signer;
let readerCa: string;
let authorizer: Authorizer;
let issuer: Awaited<ReturnType<typeof createTestIssuer>>;

beforeAll(async () => {
  hsm = startSoftHsm();
  hsm.initToken('reader', PIN);
  const { publicKey } = await generatePkcs11Key({ module: SOFTHSM_MODULE, token: { label: 'reader' }, pin: PIN, label: 'reader-auth' });
  const { leafPem, rootPem } = await certificateForKey(publicKey, 'rp.example', { readerAuth: true });
  readerCa = rootPem;
  signer = await openPkcs11Signer({ module: SOFTHSM_MODULE, token: { label: 'reader' }, pin: PIN, key: { label: 'reader-auth' }, certificateChain: [leafPem] });
  issuer = await createTestIssuer();
  authorizer = createAuthorizer({
    publicBaseUrl: 'https://verifier.example',
    sweepIntervalMs: 0,
    instances: [
      {
        id: 'reader',
        apiKeys: ['reader-api-key-0123456789'],
        // Request objects are signed in process; readerAuth by the token.
        signing: (await generateDevSigningKey()).signing,
        readerAuth: { identity: { signer, timeoutMs: 2_000 } },
        config: { openId4vp: { dcApi: { allowedOrigins: [ORIGIN] } } },
        validator: localValidator({ trustedIssuers: [issuer.rootCertificatePem] }),
        verifier: localVerifier({ trustAnchors: [issuer.rootCertificatePem], outboundFetch: { dangerouslyAllowAnyDestination: true } }),
      },
    ],
  });
});

afterAll(async () => {
  await authorizer?.close();
  await signer?.close();
  hsm?.remove();
});

describe('readerAuth signed on a PKCS#11 token', () => {
  it('a wallet requiring reader authentication accepts the token-signed readerAuth under the reader CA, and the Annex C flow authorizes', async () => {
    const created = (await authorizer.createAuthorization('reader', {
      responseMode: 'dc_api',
      protocol: 'org-iso-mdoc',
      query: { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: MDL }, claims: [{ path: [NS, 'family_name'] }] }] } },
    } as never)) as unknown as { authorizationId: string; digitalCredentialGetRequest: AnnexCGetRequest };
    const wallet = await createTestWallet();
    await wallet.addMdoc(issuer, { docType: MDL, namespaces: { [NS]: { family_name: 'Doe' } } });
    const answer = await wallet.respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN, requireReaderAuth: true, readerTrustAnchors: [readerCa] });
    expect(new X509Certificate(answer.readerCertificates[0]!).fingerprint256).toBe(new X509Certificate(signer.certificateChain[0]!).fingerprint256);
    const response = await authorizer.fetch(
      new Request(`https://verifier.example/openid4/vp/v1_0/${created.authorizationId}/dc_api`, {
        method: 'POST',
        headers: { authorization: 'Bearer reader-api-key-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ origin: ORIGIN, digitalCredentialGetResponse: answer.digitalCredentialGetResponse }),
      }),
    );
    expect(await response.json()).toEqual({ status: 'authorized' });
  });
});

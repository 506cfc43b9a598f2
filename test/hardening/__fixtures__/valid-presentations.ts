// Real presentations from the test issuer and wallet: the seeds the parser fuzzers mutate, so that
// mutations reach the branches random text cannot.
import { createTestIssuer, generateP256KeyPair, presentMdoc, presentSdJwt } from '@vp-authorizer/testing';

/** An SD-JWT VC presentation with disclosures and a KB-JWT. */
export async function validSdJwtPresentation(): Promise<string> {
  const issuer = await createTestIssuer();
  const holderKey = await generateP256KeyPair();
  const compact = await issuer.issueSdJwtVc({ vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann' }, holderPublicJwk: holderKey.publicJwk });
  return presentSdJwt({ credential: { format: 'dc+sd-jwt', id: 'pid', compact, vct: 'urn:eudi:pid:1', holderKey }, nonce: 'fuzz-nonce', audience: 'x509_hash:fuzz' });
}

/** A DeviceResponse (base64url) with one mDL document, issuer-signed and device-signed. */
export async function validDeviceResponse(): Promise<string> {
  const issuer = await createTestIssuer();
  const deviceKey = await generateP256KeyPair();
  const { docType, issuerSigned } = await issuer.issueMdoc({ docType: 'org.iso.18013.5.1.mDL', namespaces: { 'org.iso.18013.5.1': { family_name: 'Doe' } }, deviceKeyJwk: deviceKey.publicJwk });
  return presentMdoc({
    credential: { format: 'mso_mdoc', id: 'mdl', docType, issuerSigned, deviceKey },
    handover: { kind: 'redirect', clientId: 'x509_hash:fuzz', nonce: 'fuzz-nonce', responseUri: 'https://rp.example/response', encryptionJwk: null },
  });
}

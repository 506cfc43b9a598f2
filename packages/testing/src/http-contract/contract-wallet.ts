import { SignJWT, decodeProtectedHeader, exportJWK, generateKeyPair, importX509, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { encryptResponse, selectEncryptionJwk, type ResponseEnc } from '../wallet/encrypt-response.js';

export const TEST_VCT = 'urn:vp-authorizer:contract:pid:1';

/** DCQL query for one SD-JWT VC; holder binding off so a KB-JWT-less test credential is acceptable. */
export const contractDcql = {
  credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [TEST_VCT] }, require_cryptographic_holder_binding: false }],
};

export const contractPresentationDefinition = {
  id: 'contract-pd',
  input_descriptors: [{ id: 'pid', format: { 'vc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'] } }, constraints: { fields: [{ path: ['$.vct'] }] } }],
};

/**
 * A syntactically valid SD-JWT (`<issuer-jwt>~`, no disclosures, no key binding) signed by a
 * throwaway issuer key. Pass-through validator and verifier accept it; nothing trusts the key.
 */
export async function issueContractSdJwt(): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256');
  const jwt = await new SignJWT({ vct: TEST_VCT, given_name: 'Ada', _sd_alg: 'sha-256' })
    .setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt' })
    .setIssuer('https://issuer.contract.example')
    .setIssuedAt()
    .sign(privateKey);
  return `${jwt}~`;
}

/** Verify a request object's JWS with the leaf certificate of its own x5c header. */
export async function verifyRequestObject(jwt: string): Promise<{ header: Record<string, unknown>; payload: JWTPayload & Record<string, unknown> }> {
  const header = decodeProtectedHeader(jwt) as Record<string, unknown>;
  const x5c = header.x5c;
  if (!Array.isArray(x5c) || typeof x5c[0] !== 'string') throw new Error('request object has no x5c header');
  const pem = `-----BEGIN CERTIFICATE-----\n${(x5c[0].match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----`;
  const key = await importX509(pem, String(header.alg ?? 'ES256'));
  const { payload } = await jwtVerify(jwt, key, { typ: 'oauth-authz-req+jwt' });
  return { header, payload: payload as JWTPayload & Record<string, unknown> };
}

/** Encrypt an authorization response to the request object's client_metadata key (ECDH-ES), with its first listed `enc`. */
export async function encryptWalletResponse(requestPayload: Record<string, unknown>, response: Record<string, unknown>): Promise<string> {
  const metadata = requestPayload.client_metadata as (Record<string, unknown> & { encrypted_response_enc_values_supported?: ResponseEnc[] }) | undefined;
  return encryptResponse(response, selectEncryptionJwk(metadata), { enc: metadata?.encrypted_response_enc_values_supported?.[0] ?? 'A128GCM' });
}

/** A JWK for a key nobody holds (for "wrong key" cases). */
export async function strangerPublicJwk(): Promise<JWK> {
  const { publicKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256' });
  return { ...(await exportJWK(publicKey)), alg: 'ECDH-ES', kid: 'stranger' };
}

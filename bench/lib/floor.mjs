// The floor of a full flow: the cryptography a verifier cannot avoid, done with node:crypto and
// nothing else, behind the same number of plain HTTP round trips on the same framework as the
// flow it is compared with:
//   create   → one P-256 key generation (the per-request response encryption key)
//   request  → one ES256 signature (the signed request object)
//   response → one ECDH-ES/A128GCM decryption, the x5c leaf check against the issuer's root,
//              the issuer's ES256 signature and the KB-JWT's ES256 signature
//   resolve  → nothing but the round trip
// No protocol checks, no store, no policy: everything the real flow does beyond this is overhead.
import { X509Certificate, createDecipheriv, createHash, createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { route } from './frameworks.mjs';

const b64u = (data) => Buffer.from(data).toString('base64url');
const json = (text) => JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));

/** Routes under /floor; `signingJwk` signs request objects, `issuerRootPem` anchors the x5c check. */
export function floorRoutes({ signingJwk, leafX5c, issuerRootPem }) {
  const signingKey = createPrivateKey({ key: signingJwk, format: 'jwk' });
  const root = new X509Certificate(issuerRootPem);
  const pending = new Map();

  return [
    route('POST', '/floor/create', () => {
      const id = b64u(randomBytes(16));
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      pending.set(id, { privateKey, publicJwk: publicKey.export({ format: 'jwk' }), nonce: b64u(randomBytes(16)) });
      return { status: 201, json: { id } };
    }),
    route('GET', '/floor/request', ({ query }) => {
      const entry = pending.get(query.id);
      if (!entry) return { status: 404, json: {} };
      const header = b64u(JSON.stringify({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: [leafX5c] }));
      const payload = b64u(JSON.stringify({ nonce: entry.nonce, client_metadata: { jwks: { keys: [{ ...entry.publicJwk, alg: 'ECDH-ES', use: 'enc', kid: 'k' }] } } }));
      const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key: signingKey, dsaEncoding: 'ieee-p1363' });
      return { status: 200, text: `${header}.${payload}.${b64u(signature)}`, type: 'application/oauth-authz-req+jwt' };
    }),
    route('POST', '/floor/response', ({ query, body }) => {
      const entry = pending.get(query.id);
      if (!entry) return { status: 404, json: {} };
      pending.delete(query.id);
      const payload = JSON.parse(decryptEcdhEsA128Gcm(new URLSearchParams(body).get('response'), entry.privateKey));
      const presentation = Object.values(payload.vp_token)[0][0];
      const parts = presentation.split('~');
      const [issuerJwt, kbJwt] = [parts[0], parts[parts.length - 1]];
      const issuerHeader = json(issuerJwt.split('.')[0]);
      const leaf = new X509Certificate(Buffer.from(issuerHeader.x5c[0], 'base64'));
      if (!leaf.verify(root.publicKey)) throw new Error('x5c leaf not issued by the root');
      if (!verifyEs256(issuerJwt, leaf.publicKey)) throw new Error('issuer signature');
      const cnf = json(issuerJwt.split('.')[1]).cnf.jwk;
      if (!verifyEs256(kbJwt, createPublicKey({ key: cnf, format: 'jwk' }))) throw new Error('KB-JWT signature');
      return { status: 200, json: { redirect_uri: `https://rp.example/cb#response_code=${b64u(randomBytes(16))}` } };
    }),
    route('POST', '/floor/resolve', ({ body }) => {
      JSON.parse(body);
      return { status: 200, json: { status: 'authorized' } };
    }),
  ];
}

function verifyEs256(jwt, key) {
  const end = jwt.lastIndexOf('.');
  return verify('sha256', Buffer.from(jwt.slice(0, end)), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(jwt.slice(end + 1), 'base64url'));
}

/** RFC 7518 §4.6 with direct key agreement and A128GCM: one ECDH, one Concat KDF round, one AES-GCM. */
function decryptEcdhEsA128Gcm(compact, privateKey) {
  const [protectedB64, , ivB64, ciphertextB64, tagB64] = compact.split('.');
  const header = json(protectedB64);
  const shared = diffieHellman({ privateKey, publicKey: createPublicKey({ key: header.epk, format: 'jwk' }) });
  const lengthPrefixed = (data) => Buffer.concat([uint32(data.length), data]);
  const otherInfo = Buffer.concat([lengthPrefixed(Buffer.from(header.enc)), lengthPrefixed(Buffer.from(header.apu ?? '', 'base64url')), lengthPrefixed(Buffer.from(header.apv ?? '', 'base64url')), uint32(128)]);
  const cek = createHash('sha256').update(uint32(1)).update(shared).update(otherInfo).digest().subarray(0, 16);
  const decipher = createDecipheriv('aes-128-gcm', cek, Buffer.from(ivB64, 'base64url'));
  decipher.setAAD(Buffer.from(protectedB64));
  decipher.setAuthTag(Buffer.from(tagB64, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertextB64, 'base64url')), decipher.final()]).toString('utf8');
}

function uint32(n) {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
}

import { generateKeyPairSync, ECDH } from 'node:crypto';
import { exportJWK, importJWK, SignJWT, type JWK } from 'jose';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58btcEncode(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i]! << 8;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = '';
  for (const byte of bytes) {
    if (byte !== 0) break;
    out += '1';
  }
  return out + digits.reverse().map((d) => ALPHABET[d]).join('');
}

export interface DidKeyPair {
  did: string;
  kid: string;
  alg: 'ES256' | 'EdDSA';
  publicJwk: JWK;
  privateJwk: JWK;
  sign(payload: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
}

async function keyPair(type: 'p256' | 'ed25519'): Promise<{ publicJwk: JWK; privateJwk: JWK }> {
  const { publicKey, privateKey } = type === 'p256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

function withSigner(did: string, kid: string, alg: 'ES256' | 'EdDSA', keys: { publicJwk: JWK; privateJwk: JWK }): DidKeyPair {
  return {
    did,
    kid,
    alg,
    ...keys,
    async sign(payload, header = {}) {
      return new SignJWT(payload).setProtectedHeader({ alg, kid, ...header }).sign(await importJWK(keys.privateJwk, alg));
    },
  };
}

/** did:jwk holder/issuer (P-256). */
export async function didJwk(): Promise<DidKeyPair> {
  const keys = await keyPair('p256');
  const did = `did:jwk:${Buffer.from(JSON.stringify(keys.publicJwk)).toString('base64url')}`;
  return withSigner(did, `${did}#0`, 'ES256', keys);
}

/** did:key with a P-256 (zDn…) or Ed25519 (z6Mk…) key. */
export async function didKey(type: 'p256' | 'ed25519'): Promise<DidKeyPair> {
  const keys = await keyPair(type);
  const x = Buffer.from(keys.publicJwk.x!, 'base64url');
  const raw =
    type === 'ed25519'
      ? Buffer.concat([Buffer.from([0xed, 0x01]), x])
      : Buffer.concat([Buffer.from([0x80, 0x24]), ECDH.convertKey(Buffer.concat([Buffer.from([0x04]), x, Buffer.from(keys.publicJwk.y!, 'base64url')]), 'prime256v1', undefined, undefined, 'compressed') as Buffer]);
  const id = `z${base58btcEncode(raw)}`;
  const did = `did:key:${id}`;
  return withSigner(did, `${did}#${id}`, type === 'p256' ? 'ES256' : 'EdDSA', keys);
}

import { createPrivateKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * Per-request encryption keys as KeyObjects, in this process only: the key generated for an
 * authorization is remembered here so that decrypting its response skips importing the private
 * JWK again. The stored record stays the source of truth: an entry is used only when its private
 * scalar equals the record's (compared in constant time), a miss imports from the record, and an
 * entry is dropped once used (a response is decrypted once; retries import again) or when the
 * bound pushes it out. Keys are by `kid`, which is random per authorization.
 */
export class PrivateKeyCache {
  readonly #entries = new Map<string, { d: Buffer; key: KeyObject }>();

  constructor(readonly maxEntries = 1024) {}

  get size(): number {
    return this.#entries.size;
  }

  remember(kid: string, key: KeyObject, jwk: JsonWebKey): void {
    if (typeof jwk.d !== 'string') return;
    this.#entries.delete(kid);
    this.#entries.set(kid, { d: Buffer.from(jwk.d, 'base64url'), key });
    while (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** The KeyObject for the record's key: the remembered one when it matches, else imported. Throws on a bad JWK. */
  take(kid: string, jwk: JsonWebKey): KeyObject {
    const hit = this.#entries.get(kid);
    this.#entries.delete(kid);
    if (hit && typeof jwk.d === 'string') {
      const d = Buffer.from(jwk.d, 'base64url');
      if (d.length === hit.d.length && timingSafeEqual(d, hit.d)) return hit.key;
    }
    return createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  }

  forget(kid: string): void {
    this.#entries.delete(kid);
  }
}

/**
 * The process-wide cache the request builder fills. Response decryption no longer reads it (it
 * agrees through the record's scalar on a shared ECDH, see ecdh-es-decrypt.ts); it only drops
 * the entry of the key it used.
 */
export const encryptionKeys = new PrivateKeyCache();

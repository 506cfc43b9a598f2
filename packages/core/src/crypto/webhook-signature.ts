import { createHmac } from 'node:crypto';

/** Shortest HMAC key accepted (the SHA-256 block is 64 bytes; 32 bytes of entropy is the floor). */
export const MIN_WEBHOOK_SECRET_BYTES = 32;

/**
 * The HMAC key of a configured secret. A `whsec_…` secret (the Standard Webhooks form receivers'
 * libraries take) is the base64 of the key; any other string is its UTF-8 bytes. Null when a
 * `whsec_` value is not base64.
 */
export function webhookKey(secret: string): Buffer | null {
  if (!secret.startsWith('whsec_')) return Buffer.from(secret, 'utf8');
  const encoded = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  return Buffer.from(encoded, 'base64');
}

/**
 * `webhook-signature` header value of the Standard Webhooks scheme: `v1,` + base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}` (timestamp in epoch seconds, body the exact bytes sent).
 */
export function webhookSignature(key: Uint8Array, id: string, timestampSeconds: number, body: Uint8Array): string {
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

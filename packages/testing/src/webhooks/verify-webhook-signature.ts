import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A receiver's check of a Standard Webhooks signature, written from the published scheme and
 * independent of the library's signing code: HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`
 * with the secret's key (`whsec_` + base64, or the UTF-8 bytes of any other string), compared in
 * constant time with each `v1,<base64>` entry of `webhook-signature`; the timestamp must be within
 * `toleranceSeconds` of `nowSeconds`. Returns the reason it fails, or null when it verifies.
 */
export function webhookSignatureProblem(
  secret: string,
  headers: IncomingHttpHeaders,
  body: Uint8Array,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): string | null {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return 'missing webhook-id, webhook-timestamp or webhook-signature';
  if (!/^\d+$/.test(timestamp)) return 'webhook-timestamp is not an integer';
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return 'webhook-timestamp is outside the tolerance';
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  const expected = createHmac('sha256', key).update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), Buffer.from(body)])).digest();
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || value === undefined) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  }
  return 'no v1 signature matches';
}

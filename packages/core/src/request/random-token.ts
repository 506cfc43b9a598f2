import { randomBytes } from 'node:crypto';

/** URL-safe random token; 32 bytes (256 bits) by default, never less than 16 (128 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(Math.max(16, bytes)).toString('base64url');
}

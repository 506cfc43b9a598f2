import { PolicyFailure } from './policy-failure.js';

/** A JWT NumericDate (seconds) or undefined; anything else is malformed. */
function numericDate(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new PolicyFailure('validity.invalid', `${name} is not a NumericDate`);
  return value * 1000;
}

/** Epoch milliseconds from a NumericDate, an ISO date string (VCDM) or a Date; undefined stays undefined. */
export function timeOf(value: unknown, name: string): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') {
    const t = Date.parse(value);
    if (Number.isNaN(t)) throw new PolicyFailure('validity.invalid', `${name} is not a valid date`);
    return t;
  }
  return numericDate(value, name);
}

/** notBefore: fails when the start lies further in the future than the skew allows. */
export function checkNotBefore(start: number | undefined, now: number, skewMs: number, name: string): Record<string, unknown> {
  if (start === undefined) return { checked: false };
  if (start > now + skewMs) throw new PolicyFailure('validity.not_yet_valid', `The credential is valid only from ${new Date(start).toISOString()} (${name})`);
  return { [name]: new Date(start).toISOString() };
}

/** notAfter: fails when the end lies further in the past than the skew allows. */
export function checkNotAfter(end: number | undefined, now: number, skewMs: number, name: string): Record<string, unknown> {
  if (end === undefined) return { checked: false };
  if (end + skewMs <= now) throw new PolicyFailure('validity.expired', `The credential expired at ${new Date(end).toISOString()} (${name})`);
  return { [name]: new Date(end).toISOString() };
}

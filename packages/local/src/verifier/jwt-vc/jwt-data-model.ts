import { isRecord } from '../encoding.js';
import { PolicyFailure } from '../policy-failure.js';

const TYPS = { vc: new Set(['vc+jwt', 'vc+ld+json+jwt']), vp: new Set(['vp+jwt', 'vp+ld+json+jwt']) } as const;

/**
 * The data model is decided once, by the format policy (`vc`/`vp` claim → VCDM 1.1, else 2.0). The
 * verifier checks the same JWT agrees, so it can never verify one set of claims while the
 * validator and `/credentials` read another:
 * - a `vc+jwt`/`vp+jwt` typ (VCDM 2.0) together with a `vc`/`vp` claim (VCDM 1.1) is ambiguous;
 * - the claims must give the data model the format policy parsed.
 */
export function checkJwtDataModel(header: Record<string, unknown>, payload: Record<string, unknown>, kind: 'vc' | 'vp', parsed: '1.1' | '2.0'): void {
  const typ = typeof header.typ === 'string' ? header.typ.toLowerCase() : '';
  if (TYPS[kind].has(typ) && payload[kind] !== undefined) throw new PolicyFailure('proof.typ_invalid', `The JWT has typ ${typ.slice(0, 20)} (VCDM 2.0) and a ${kind} claim (VCDM 1.1)`);
  const fromClaims = isRecord(payload[kind]) ? '1.1' : '2.0';
  if (fromClaims !== parsed) throw new PolicyFailure('format.malformed', 'The JWT data model differs from the one the format policy parsed');
}

/** The unverified payload, only to locate keys and to compare shapes; signatures decide the rest. */
export function unverifiedPayload(jwt: string): Record<string, unknown> {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    return isRecord(payload) ? payload : {};
  } catch {
    return {};
  }
}

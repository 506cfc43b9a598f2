import type { ExtractedCredential } from '../../model/extracted-credential.js';
import { isJsonObject } from './decode-jwt.js';
import type { QueryIssue } from '../format-descriptor.js';
import type { JsonObject, ParsedJwtVcPresentation, ParsedJwtVp, ParsedLdp } from '../../model/parsed-presentation.js';

/** The `type` member of a W3C credential or presentation as a list (a lone string counts). */
export function w3cTypes(object: JsonObject): string[] {
  const type = object.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** The most specific W3C type: the last one that is not the generic base type. */
function mostSpecificType(types: string[], base: string): string {
  return [...types].reverse().find((t) => t !== base) ?? base;
}

/** `credentialSubject` as claims; several subjects are kept as `{credentialSubject: [...]}`. */
function subjectClaims(credential: JsonObject): Record<string, unknown> {
  const subject = credential.credentialSubject;
  if (isJsonObject(subject)) return subject;
  if (Array.isArray(subject)) {
    if (subject.length === 1 && isJsonObject(subject[0])) return subject[0];
    return { credentialSubject: subject };
  }
  return {};
}

/** A W3C credential as the relying party reads it: the most specific type and `credentialSubject`. */
export function w3cExtracted(path: (string | number)[], format: string, credential: JsonObject, types = w3cTypes(credential)): ExtractedCredential {
  return { path, format, credentialType: mostSpecificType(types, 'VerifiableCredential'), claims: subjectClaims(credential) };
}

/**
 * W3C presentations as the relying party reads them: a credential is one entry; a JWT VP or an
 * ldp VP gives one entry per embedded credential at `[queryId, index, vcIndex]`.
 */
export function extractW3c(presentation: ParsedJwtVcPresentation | ParsedJwtVp | ParsedLdp): ExtractedCredential[] {
  const { path, format } = presentation;
  switch (presentation.kind) {
    case 'jwt-vc':
      return [w3cExtracted(path, format, presentation.credential, presentation.types)];
    case 'jwt-vp':
      return presentation.credentials.map((vc, i) => w3cExtracted([...path, i], format, vc.credential, vc.types));
    case 'ldp': {
      const raw = presentation.raw;
      if (!w3cTypes(raw).includes('VerifiablePresentation')) return [w3cExtracted(path, format, raw)];
      const entries = raw.verifiableCredential;
      const list = Array.isArray(entries) ? entries : entries === undefined ? [] : [entries];
      return list.flatMap((vc, i) => (isJsonObject(vc) ? [w3cExtracted([...path, i], format, vc)] : []));
    }
  }
}

/** An absolute IRI as JSON-LD expansion produces it: a scheme, a colon, and no whitespace. */
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]*$/;

/** Expanded IRIs of the VC base types, for the hint when a query names one bare. */
const BASE_TYPE_IRIS: Record<string, string> = {
  VerifiableCredential: 'https://www.w3.org/2018/credentials#VerifiableCredential',
  VerifiablePresentation: 'https://www.w3.org/2018/credentials#VerifiablePresentation',
};

/**
 * DCQL `meta.type_values` (W3C formats, OpenID4VP 1.0 B.1.1): optional, else a non-empty array of
 * non-empty string arrays, every string a fully expanded type IRI. A bare name (`"VerifiableCredential"`)
 * is refused here rather than guessed: the credential's own `@context` decides what a term means,
 * and the spec compares expanded IRIs only.
 */
export function typeValuesIssues(meta: Record<string, unknown>): QueryIssue[] {
  const types = meta.type_values;
  if (types === undefined) return [];
  if (!(Array.isArray(types) && types.length > 0 && types.every((t) => Array.isArray(t) && t.length > 0 && t.every((x) => typeof x === 'string')))) {
    return [{ path: ['meta', 'type_values'], detail: 'meta.type_values must be a non-empty array of non-empty arrays of strings' }];
  }
  const issues: QueryIssue[] = [];
  (types as string[][]).forEach((alternative, i) =>
    alternative.forEach((type, j) => {
      if (ABSOLUTE_IRI.test(type)) return;
      const known = BASE_TYPE_IRIS[type];
      const hint = known ? `use "${known}"` : 'expand the term with the credential\'s @context (for example https://www.w3.org/2018/credentials#VerifiableCredential for VerifiableCredential)';
      issues.push({ path: ['meta', 'type_values', i, j], detail: `type_values hold fully expanded type IRIs (OpenID4VP 1.0 B.1.1), not a term as written in the credential: ${hint}` });
    }),
  );
  return issues;
}

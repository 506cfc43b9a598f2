import { isJsonObject } from './decode-jwt.js';
import type { ExtractedCredential } from './extracted-credential.js';
import type { JsonObject, ParsedPresentation } from './parsed-presentation.js';

/** Members that describe the credential mechanics rather than the subject; not handed to the RP as claims. */
const SD_JWT_HIDDEN = new Set(['cnf', '_sd', '_sd_alg']);

/** The most specific W3C type: the last one that is not the generic base type. */
function mostSpecificType(types: string[], base: string): string {
  return [...types].reverse().find((t) => t !== base) ?? base;
}

function typesOf(object: JsonObject): string[] {
  const type = object.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
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

function w3c(path: (string | number)[], format: string, credential: JsonObject, types = typesOf(credential)): ExtractedCredential {
  return { path, format, credentialType: mostSpecificType(types, 'VerifiableCredential'), claims: subjectClaims(credential) };
}

/**
 * What the RP reads from `/credentials`: SD-JWT → disclosed claims without `cnf`/`_sd*`
 * (type = `vct`, empty string when absent); mdoc → one entry per document with
 * `{namespace: {element: value}}` at `[queryId, index, docIndex]`; JWT VC → credentialSubject;
 * JWT VP / ldp VP → one entry per embedded credential at `[queryId, index, vcIndex]`.
 */
export function extractCredentials(presentation: ParsedPresentation): ExtractedCredential[] {
  const { path, format } = presentation;
  switch (presentation.kind) {
    case 'sd-jwt': {
      const claims = Object.fromEntries(Object.entries(presentation.claims).filter(([k]) => !SD_JWT_HIDDEN.has(k)));
      return [{ path, format, credentialType: presentation.vct ?? '', claims }];
    }
    case 'mdoc':
      return presentation.documents.map((document, docIndex) => ({
        path: [...path, docIndex],
        format,
        credentialType: document.docType,
        claims: Object.fromEntries(
          Object.entries(document.nameSpaces).map(([namespace, items]) => [
            namespace,
            Object.fromEntries(items.map((item) => [item.elementIdentifier, item.elementValue])),
          ]),
        ),
      }));
    case 'jwt-vc':
      return [w3c(path, format, presentation.credential, presentation.types)];
    case 'jwt-vp':
      return presentation.credentials.map((vc, i) => w3c([...path, i], format, vc.credential, vc.types));
    case 'ldp': {
      const raw = presentation.raw;
      if (!typesOf(raw).includes('VerifiablePresentation')) return [w3c(path, format, raw)];
      const entries = raw.verifiableCredential;
      const list = Array.isArray(entries) ? entries : entries === undefined ? [] : [entries];
      return list.flatMap((vc, i) => (isJsonObject(vc) ? [w3c([...path, i], format, vc)] : []));
    }
  }
}

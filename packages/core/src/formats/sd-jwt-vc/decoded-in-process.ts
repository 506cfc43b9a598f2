import type { DecodedJwt, ParsedSdJwt, SdJwtDisclosure } from '../../model/parsed-presentation.js';
import { frozenJsonCopy } from '../../store/json-copy.js';

/**
 * What the format policy decoded from one SD-JWT presentation's `raw`, as it decoded it: the
 * issuer JWT's and KB-JWT's headers and payloads (strict base64url, UTF-8, JSON objects within
 * the depth limit) and every disclosure with its digest under the credential's `_sd_alg`.
 */
export interface DecodedSdJwt {
  raw: string;
  issuerJwt: DecodedJwt;
  disclosures: readonly SdJwtDisclosure[];
  kbJwt: DecodedJwt | undefined;
}

// Keyed by the presentation object the parser returned: only this process's parser adds to it, so
// a presentation built or deserialised elsewhere (a remote service's input) is never found here.
const decodedHere = new WeakMap<ParsedSdJwt, DecodedSdJwt>();

/**
 * Kept as a private copy: the presentation's own objects go to every client, and one that edits
 * them (an in-process validator running beside the verifier) must not change what the verifier
 * reads after checking the signatures over `raw`.
 */
export function rememberDecoded(presentation: ParsedSdJwt): void {
  // Frozen too, in the same walk: whoever asks decodedInProcess() gets this very object, and must not be able to edit it.
  decodedHere.set(presentation, frozenJsonCopy({ raw: presentation.raw, issuerJwt: presentation.issuerJwt, disclosures: presentation.disclosures, kbJwt: presentation.kbJwt }));
}

/**
 * For an in-process verifier: the decoding this process's format policy did of `presentation`,
 * when it produced that very object and its `raw` is still the string it decoded; otherwise
 * undefined, and the verifier decodes `raw` itself. Spares decoding and hashing everything twice;
 * the signatures are still checked over `raw`.
 */
export function decodedInProcess(presentation: ParsedSdJwt): DecodedSdJwt | undefined {
  const decoded = decodedHere.get(presentation);
  return decoded !== undefined && decoded.raw === presentation.raw ? decoded : undefined;
}

import { isExpectedOrigin } from './origin.js';

/**
 * True when `uri` carries credentials (`user:password@`, or only one of them). Never in a redirect
 * URI: they would travel to the browser, its history and the redirect target, and they disguise
 * where a link leads (`https://rp.example@evil.example/`).
 */
export function hasCredentials(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/**
 * True when `uri` holds a backslash, an ASCII control character or any whitespace. The URL parser
 * reads `\` as `/` and drops tabs and newlines, so `https://rp.example\@evil.example/` or
 * `https://rp.example\t/@evil.example` would be compared as one string and followed as another:
 * refused outright rather than normalised, since the raw string is what gets stored and sent.
 */
export function hasUnsafeCharacters(uri: string): boolean {
  return /[\\\s\u0000-\u001f\u007f]/.test(uri);
}

/** An allow-list entry that stands for a whole origin (`https://app.example`), not one URI. */
const isOriginEntry = (entry: string): boolean => !entry.startsWith('android:') && isExpectedOrigin(entry);

/**
 * Whether `uri` may be a redirect URI under `allowList` (`openId4vp.allowedRedirectUris`): equal to
 * an entry, compared as strings (RFC 9700 section 4.1.3: no normalisation, no prefix or pattern
 * matching), or on the origin of an entry that is an origin. Without a list, every URI is allowed
 * that has no unsafe characters (hasUnsafeCharacters).
 */
export function isAllowedRedirectUri(uri: string, allowList: readonly string[] | undefined): boolean {
  if (hasUnsafeCharacters(uri)) return false;
  if (allowList === undefined) return true;
  if (allowList.includes(uri)) return true;
  let origin: string;
  try {
    origin = new URL(uri).origin;
  } catch {
    return false;
  }
  return allowList.some((entry) => isOriginEntry(entry) && entry === origin);
}

/** What is wrong with an allow-list entry, or undefined when it is fine. */
export function allowListEntryProblem(entry: string): string | undefined {
  if (hasUnsafeCharacters(entry)) return 'an entry must not contain a backslash, whitespace or control characters';
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return `"${entry}" is not an absolute URI`;
  }
  if (url.username !== '' || url.password !== '') return 'an entry must not carry credentials (user:password@)';
  if (url.hash !== '') return 'an entry must not have a #fragment (a redirect URI never has one that matters to the wallet)';
  // Written without a path, it stands for the origin: it must be the origin as browsers write it,
  // or it would never match (and `https://RP.example` would silently allow nothing).
  const web = url.protocol === 'https:' || url.protocol === 'http:';
  if (web && !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\//i.test(entry) && !isOriginEntry(entry)) {
    return `"${entry}" is written as an origin but is not one as browsers write it: use "${url.origin}" (lower case, no default port), or a full URI with a path`;
  }
  return undefined;
}

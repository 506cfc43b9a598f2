/**
 * `redirectUri` with `response_code=<code>` appended to its query, as
 * `url.searchParams.append('response_code', code)` writes it. That re-serialises the whole query,
 * so only a URI without a query or fragment (the usual configured redirect) takes the short way:
 * its parsed `href` is remembered and the parameter appended as text. `code` must be base64url
 * (it then needs no escaping in a query).
 */
export function redirectWithCode(redirectUri: string, code: string): string {
  let href = plainHrefs.get(redirectUri);
  if (href === undefined) {
    const url = new URL(redirectUri);
    // In an href, "?" and "#" only ever start the query and the fragment.
    href = url.href.includes('?') || url.href.includes('#') ? null : url.href;
    plainHrefs.set(redirectUri, href);
    if (plainHrefs.size > MAX_REMEMBERED) plainHrefs.delete(plainHrefs.keys().next().value!);
  }
  if (href === null) {
    const url = new URL(redirectUri);
    url.searchParams.append('response_code', code);
    return url.toString();
  }
  return `${href}?response_code=${code}`;
}

/** Redirect URIs are per instance or per authorization (create body): a handful in practice. */
const MAX_REMEMBERED = 256;
/** redirectUri → its href when it has neither query nor fragment, else null. */
const plainHrefs = new Map<string, string | null>();

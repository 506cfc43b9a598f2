/**
 * `redirectUri` with `response_code=<code>` appended to its query (after any parameters it already
 * has, before its fragment).
 */
export function redirectWithCode(redirectUri: string, code: string): string {
  const url = new URL(redirectUri);
  url.searchParams.append('response_code', code);
  return url.href;
}

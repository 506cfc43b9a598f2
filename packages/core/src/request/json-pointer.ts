import type * as v from 'valibot';

/** RFC 6901 pointer from path segments (`~` → `~0`, `/` → `~1`). */
export function jsonPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The pointer of a valibot issue (relative to the parsed value), prefixed with `base`. */
export function issuePointer(issue: v.BaseIssue<unknown>, base: readonly (string | number)[] = []): string {
  const keys = (issue.path ?? []).map((item) => item.key as string | number);
  return jsonPointer([...base, ...keys]);
}

/** valibot's text for a missing member ("Invalid key: Expected …") reads poorly in an API error. */
export function issueDetail(issue: v.BaseIssue<unknown>): string {
  const last = issue.path?.[issue.path.length - 1]?.key;
  if (issue.received === 'undefined' && issue.message.startsWith('Invalid key') && typeof last === 'string') return `${last} is required`;
  return issue.message;
}

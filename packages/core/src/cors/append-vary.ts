/**
 * Merge `value` (one or more comma-separated field names) into an existing Vary header value.
 * Keeps what is there, skips names already present (case-insensitive), and keeps `*` as is.
 * Adapters use it so a CORS `Vary: Origin` never overwrites a Vary set by the app.
 */
export function appendVary(current: string | readonly string[] | number | null | undefined, value: string): string {
  const existing = (Array.isArray(current) ? current.join(',') : current == null ? '' : String(current))
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (existing.includes('*')) return '*';
  const names = new Set(existing.map((f) => f.toLowerCase()));
  for (const field of value.split(',').map((f) => f.trim())) {
    if (field === '' || names.has(field.toLowerCase())) continue;
    if (field === '*') return '*';
    names.add(field.toLowerCase());
    existing.push(field);
  }
  return existing.join(', ');
}

/**
 * Does a wallet's algorithm list under `key` share a value with ours? An absent list puts no
 * restriction (wallets omit what they do not constrain).
 */
export function sharesAlgorithm(entry: Record<string, unknown>, key: string, accepted: readonly unknown[]): boolean {
  const values = entry[key];
  return values === undefined || (Array.isArray(values) && values.some((x) => accepted.includes(x)));
}

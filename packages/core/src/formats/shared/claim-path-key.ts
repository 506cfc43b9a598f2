/** The key a claim path is compared by: its JSON text (`["org.iso.18013.5.1","given_name"]`). */
export const claimPathKey = (path: readonly unknown[]): string => JSON.stringify(path);

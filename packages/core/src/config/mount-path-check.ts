/**
 * Wallets reach the authorizer at `publicBaseUrl` (request_uri and response_uri are built from
 * it); a router mounted under another path answers them 404. The host's mount point is only known
 * once a request arrives, so the first request whose mount point differs is reported, once.
 * Behind a proxy that rewrites the path the two legitimately differ: a warning, not a refusal.
 */
export function mountPathCheck(publicBaseUrl: string, warn: (fields: { mountPath: string; publicBasePath: string }) => void): (mountPath: string) => void {
  const publicBasePath = new URL(publicBaseUrl).pathname.replace(/\/+$/, '');
  let warned = false;
  return (mountPath) => {
    if (warned) return;
    const mounted = mountPath.replace(/\/+$/, '');
    if (mounted === publicBasePath) return;
    warned = true;
    warn({ mountPath: mounted || '/', publicBasePath: publicBasePath || '/' });
  };
}

/** The warning's text, naming both paths and the fix. */
export function mountPathMessage({ mountPath, publicBasePath }: { mountPath: string; publicBasePath: string }): string {
  return `the authorizer is mounted at "${mountPath}" but publicBaseUrl's path is "${publicBasePath}": wallets will get 404 on request_uri and response_uri. Mount the router at "${publicBasePath}" or change publicBaseUrl (ignore this behind a proxy that rewrites the path).`;
}

// Every request under /authz goes to authorizer.fetch, which strips PUBLIC_BASE_URL's path
// (/authz) and routes it: the RP API, the wallet endpoints, health and the event stream.
import { configuredAuthorizer, withCors } from '../../../lib/authorizer.mjs';

// Node APIs (node:crypto, the stores' sockets): not the edge runtime. Never cached or prerendered.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** @param {Request} request */
async function handler(request) {
  const { authorizer, config } = await configuredAuthorizer();
  return withCors(request, config.cors, () => authorizer.fetch(request));
}

export { handler as GET, handler as HEAD, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS };

// The app's own API, calling the authorizer in process (no API key, no HTTP hop): start a
// verification of a PID's given name; the browser shows authorizeUrl as a link or QR code.
import { configuredAuthorizer, INSTANCE } from '../../lib/authorizer.mjs';
import { refusal } from '../../lib/refusal.mjs';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST() {
  const { authorizer } = await configuredAuthorizer();
  try {
    const created = await authorizer.createAuthorization(INSTANCE, {
      responseMode: 'direct_post.jwt',
      query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } },
    });
    if (!('authorizeUrl' in created)) throw new Error('a direct_post.jwt authorization has an authorizeUrl');
    return Response.json({ authorizationId: created.authorizationId, authorizeUrl: created.authorizeUrl }, { status: 201 });
  } catch (error) {
    return refusal(error);
  }
}

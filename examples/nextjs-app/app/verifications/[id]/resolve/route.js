// The wallet's redirect brought a response_code back: resolve it against the authorization id
// kept in the user's session (a code issued for another authorization is refused).
import { configuredAuthorizer, INSTANCE } from '../../../../lib/authorizer.mjs';
import { refusal } from '../../../../lib/refusal.mjs';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** @param {Request} request @param {{ params: Promise<{ id: string }> }} context */
export async function POST(request, { params }) {
  const { id } = await params;
  const { authorizer } = await configuredAuthorizer();
  try {
    const body = await request.json().catch(() => ({}));
    const resolved = await authorizer.resolveResponseCode(INSTANCE, String(body?.response_code ?? ''), { expectedAuthorizationId: id });
    if (resolved.status !== 'authorized') return Response.json({ status: resolved.status });
    const { credentials } = await authorizer.getCredentials(INSTANCE, id);
    return Response.json({ status: resolved.status, givenName: credentials[0]?.claims.given_name });
  } catch (error) {
    return refusal(error);
  }
}

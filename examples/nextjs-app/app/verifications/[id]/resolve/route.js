// The wallet's redirect brought a response_code back: resolve it against the authorization id
// kept in the user's session (a code issued for another authorization is refused).
import { readBodyWithLimit } from '@vp-authorizer/core/http';
import { configuredAuthorizer, INSTANCE } from '../../../../lib/authorizer.mjs';
import { refusal } from '../../../../lib/refusal.mjs';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The body is one response code: route handlers have no body limit of their own, so this one bounds what a caller makes the app read. */
const BODY_LIMIT_BYTES = 16 * 1024;

/** @param {Request} request @param {{ params: Promise<{ id: string }> }} context */
export async function POST(request, { params }) {
  const { id } = await params;
  const { authorizer } = await configuredAuthorizer();
  try {
    // Over the limit: AuthorizerError request.body_too_large, answered 413 by refusal().
    const bytes = await readBodyWithLimit(request.body, BODY_LIMIT_BYTES);
    let body;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      body = {};
    }
    const resolved = await authorizer.resolveResponseCode(INSTANCE, String(body?.response_code ?? ''), { expectedAuthorizationId: id });
    if (resolved.status !== 'authorized') return Response.json({ status: resolved.status });
    const { credentials } = await authorizer.getCredentials(INSTANCE, id);
    return Response.json({ status: resolved.status, givenName: credentials[0]?.claims.given_name });
  } catch (error) {
    return refusal(error);
  }
}

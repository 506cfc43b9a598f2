export const dynamic = 'force-dynamic';

export function GET() {
  return new Response('Your app. The authorizer lives under /authz.\n', { headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

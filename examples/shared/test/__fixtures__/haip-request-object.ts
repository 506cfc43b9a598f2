// A HAIP authorization created on the example authorizer's instance `main`, and its request object
// checked against the certificate that should have signed it.
import { X509Certificate, verify } from 'node:crypto';
import type { Authorizer } from '@vp-authorizer/core';

export async function haipRequestObject(authorizer: Authorizer, leafPem: string | Buffer): Promise<{ signedByLeaf: boolean; header: { x5c?: string[] } }> {
  const created = (await authorizer.createAuthorization('main', {
    profile: 'haip',
    responseMode: 'direct_post.jwt',
    query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } },
  })) as { authorizationId: string };
  const jwt = await authorizer.getRequestObject(created.authorizationId);
  const [h, p, s] = jwt.split('.') as [string, string, string];
  const leaf = new X509Certificate(leafPem);
  return {
    signedByLeaf: verify('sha256', Buffer.from(`${h}.${p}`), { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')),
    header: JSON.parse(Buffer.from(h, 'base64url').toString()) as { x5c?: string[] },
  };
}

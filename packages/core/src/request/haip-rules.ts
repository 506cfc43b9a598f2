import type { SupportedAlgorithms } from '../model/verifier-client.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { AuthorizerError, type FieldError } from '../errors/authorizer-error.js';
import { allowedUnderHaip, haipFormatIds } from '../formats/registry.js';
import { isDcApiBody, type CreateAuthorizationBody } from './create-authorization-body.js';
import type { ClientIdPrefix, HaipSigner } from './signing-material.js';
import { checkWalletMetadata } from './wallet-metadata.js';

export { checkWalletMetadata, parseWalletMetadataParam } from './wallet-metadata.js';

/** Formats a query asks for (DCQL credential formats; PE definition-level and descriptor-level format keys). */
export function queryFormats(body: Pick<CreateAuthorizationBody, 'query'>): string[] {
  if (body.query.type === 'DCQL') return [...new Set(body.query.dcql.credentials.map((c) => c.format))];
  const pd = body.query.presentationDefinition;
  return [...new Set([...Object.keys(pd.format ?? {}), ...pd.input_descriptors.flatMap((d) => Object.keys(d.format ?? {}))])];
}

/**
 * HAIP 1.0 rules checked at creation (profile "haip"). Every violation is listed in `errors`
 * (each with its own code); the thrown code is the first rule broken, in the order below. The
 * signing rules apply to every signing identity of the instance (`signers`, primary first), not
 * only to the one that signs this request: a HAIP instance publishes them all (JWKS, trust
 * anchors, multi-signed requests).
 */
export function enforceHaipOnCreate(
  body: CreateAuthorizationBody,
  ctx: { clientIdPrefix: ClientIdPrefix; signers: readonly HaipSigner[]; algorithms?: SupportedAlgorithms },
): void {
  if (body.profile !== 'haip') return;
  const violations: (FieldError & { code: ErrorCode })[] = [];
  const add = (code: ErrorCode, pointer: string, detail: string) => violations.push({ code, pointer, detail });

  if (body.responseType !== 'vp_token') add('haip.response_type', '/responseType', 'HAIP allows only responseType "vp_token"');
  if (body.responseMode !== 'direct_post.jwt' && body.responseMode !== 'dc_api.jwt') {
    add('haip.response_mode', '/responseMode', 'HAIP allows only responseMode "direct_post.jwt" or "dc_api.jwt"');
  }
  if (body.query.type !== 'DCQL') add('haip.query_type', '/query/type', 'HAIP allows only DCQL queries');

  // An unsigned DC API request carries no client_id and no certificate, so the signing rules do not apply.
  const signed = !(isDcApiBody(body) && body.protocol === 'openid4vp-v1-unsigned');
  if (signed) {
    ctx.signers.forEach((signer, i) => {
      // The primary's problems read as before; later identities are named by their index.
      const which = i === 0 ? '' : ` (signing identity ${i})`;
      if (signer.clientIdPrefix !== 'x509_hash') {
        add('haip.client_id_prefix', '', i === 0 ? `HAIP requires the x509_hash client id prefix; this instance is configured with ${signer.clientIdPrefix}` : `HAIP requires the x509_hash client id prefix; signing identity ${i} signs under ${signer.clientIdPrefix}`);
      }
      if (signer.leafSelfSigned) add('haip.certificate_chain', '', `HAIP forbids a self-signed request-signing certificate${which}`);
      if (signer.leafIsCa) add('haip.certificate_chain', '', `HAIP requires an end-entity request-signing certificate, not a CA certificate (basicConstraints cA=true)${which}`);
      if (signer.chainIncludesAnchor) add('haip.certificate_chain', '', `HAIP forbids the trust anchor in the x5c certificate chain${which}`);
    });
  }

  if (body.query.type === 'DCQL') {
    body.query.dcql.credentials.forEach((c, i) => {
      if (!allowedUnderHaip(c.format)) add('haip.credential_format', `/query/dcql/credentials/${i}/format`, `HAIP allows only the formats ${haipFormatIds().join(' and ')}, not ${c.format}`);
      if (c.require_cryptographic_holder_binding === false) {
        add('haip.holder_binding', `/query/dcql/credentials/${i}/require_cryptographic_holder_binding`, 'HAIP requires cryptographic holder binding; require_cryptographic_holder_binding: false is not allowed');
      }
    });
  }

  if (violations.length > 0) throw new AuthorizerError(violations[0]!.code, { errors: violations });

  if (body.walletMetadata) {
    const algorithms = ctx.algorithms ? { algorithms: ctx.algorithms } : {};
    checkWalletMetadata(body.walletMetadata, { haip: true, clientIdPrefix: ctx.clientIdPrefix, requireClientIdPrefix: false, formats: queryFormats(body), ...algorithms });
  }
}

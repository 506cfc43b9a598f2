import type { AuthorizationQuery, AuthorizationRecord, DcqlQuery, PresentationDefinition } from '../model/authorization-record.js';
import type { SupportedAlgorithms } from '../model/verifier-client.js';
import type { InstanceConfig } from '../config/instance-config.js';
import { FORMATS, formatDescriptor, formatNames } from '../formats/registry.js';
import { ES256_ONLY } from './accepted-algorithms.js';

/**
 * Per-format algorithm parameters (OpenID4VP 1.0 appendix B) for one accepted-algorithm set: every
 * name of every registered format that defines parameters.
 */
export function formatParameters(algs: SupportedAlgorithms): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    FORMATS.flatMap((descriptor) => {
      const parameters = descriptor.vpFormatParameters;
      return parameters ? formatNames(descriptor).map((name) => [name, parameters(algs)]) : [];
    }),
  );
}

/** The parameters for a verifier that does not declare its algorithms (ES256 / COSE ES256 only). */
export const FORMAT_PARAMETERS: Record<string, Record<string, unknown>> = formatParameters(ES256_ONLY);

/** Formats Presentation Exchange wallets (drafts ≤ 25) expect to see offered. */
const LEGACY_PE_FORMATS = FORMATS.filter((d) => d.offeredToPresentationExchange).map((d) => d.id);

/** Both AES-GCM sizes, as HAIP requires the verifier to list. */
export const ENCRYPTED_RESPONSE_ENC_VALUES = ['A128GCM', 'A256GCM'] as const;

function peFormats(pd: PresentationDefinition): string[] {
  return [...Object.keys(pd.format ?? {}), ...pd.input_descriptors.flatMap((d) => Object.keys(d.format ?? {})), ...LEGACY_PE_FORMATS];
}

const dcqlFormats = (q: DcqlQuery): string[] => q.credentials.map((c) => c.format);

/**
 * `vp_formats_supported` covering every format the query asks for (unknown formats: no
 * constraint), listing exactly the algorithms the verifier accepts (`algs`, default ES256).
 */
export function vpFormatsSupported(query: AuthorizationQuery, algs: SupportedAlgorithms = ES256_ONLY): Record<string, Record<string, unknown>> {
  const formats = query.type === 'DCQL' ? dcqlFormats(query.dcql) : peFormats(query.presentationDefinition);
  // Parameters for the formats asked for only (the same entries as formatParameters(algs)):
  // building every registered format's per request object cost more than the rest of it.
  return Object.fromEntries([...new Set(formats)].map((f) => [f, formatDescriptor(f)?.vpFormatParameters?.(algs) ?? {}]));
}

/** Pre-1.0 `vp_formats` (`alg` lists), kept for Presentation Exchange wallets. */
function legacyVpFormats(query: AuthorizationQuery, algs: SupportedAlgorithms): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const format of Object.keys(vpFormatsSupported(query, algs))) {
    const legacy = formatDescriptor(format)?.legacyVpFormatParameters;
    out[format] = legacy ? legacy(algs) : { alg: [...algs.jose] };
  }
  return out;
}

/**
 * `client_metadata` for a request (OpenID4VP 1.0 section 5.1): the per-request encryption key
 * (public part only) and both enc values for encrypted modes, the formats with the verifier's
 * accepted algorithms (`algs`, see acceptedAlgorithms), and display metadata.
 */
export function buildClientMetadata(record: AuthorizationRecord, config: InstanceConfig, algs: SupportedAlgorithms = ES256_ONLY): Record<string, unknown> {
  const { query, responseMode } = record.request;
  const metadata: Record<string, unknown> = {};
  const key = record.encryptionKey;
  if (key && (responseMode === 'direct_post.jwt' || responseMode === 'dc_api.jwt')) {
    // Copy field by field so nothing but public members can ever reach the wallet.
    const { kty, crv, x, y } = key.publicJwk;
    metadata.jwks = { keys: [{ kty, crv, x, y, kid: key.kid, alg: key.alg, use: 'enc' }] };
    metadata.encrypted_response_enc_values_supported = [...ENCRYPTED_RESPONSE_ENC_VALUES];
  }
  metadata.vp_formats_supported = vpFormatsSupported(query, algs);
  if (query.type === 'DIF.PresentationExchange') metadata.vp_formats = legacyVpFormats(query, algs);
  const display = config.openId4vp.clientMetadata;
  if (display.clientName !== undefined) metadata.client_name = display.clientName;
  if (display.clientUri !== undefined) metadata.client_uri = display.clientUri;
  if (display.logoUri !== undefined) metadata.logo_uri = display.logoUri;
  if (display.location !== undefined) metadata.location = display.location;
  return metadata;
}

import type { AuthorizationRecord, DcApiProtocol } from '../model/authorization-record.js';
import type { AnnexCRequest } from './annex-c-request.js';
import type { SupportedAlgorithms } from '../model/verifier-client.js';
import type { InstanceConfig } from '../config/instance-config.js';
import { buildClientMetadata } from './client-metadata.js';
import { signMultiSignedRequestObject, signRequestObject, type MultiSignedRequest } from './sign-request-object.js';
import type { SigningIdentity, SigningMaterial } from './signing-material.js';
import type { RegistrationInfoEntry } from '../config/registration-certificates.js';

export type { DigitalCredentialGetRequest, UnsignedDcApiRequestData } from '../model/created-authorization.js';
import type { DigitalCredentialGetRequest, UnsignedDcApiRequestData } from '../model/created-authorization.js';

/**
 * Build the DC API request for a DC API record (OpenID4VP 1.0 appendix A). Unsigned requests
 * carry no client_id; signed ones are a compact JWS; multi-signed a JWS JSON serialization;
 * org-iso-mdoc (ISO/IEC 18013-7 Annex C) the DeviceRequest and EncryptionInfo.
 */
export async function buildDigitalCredentialGetRequest(args: {
  record: AuthorizationRecord;
  signing: SigningMaterial;
  /** Multi-signed requests: every identity, primary first. Default: the primary alone, under the record's client_id. */
  signers?: SigningIdentity[];
  /** The instance's registration certificates: signed requests carry them in verifier_info. */
  registrationInfo?: readonly RegistrationInfoEntry[];
  config: InstanceConfig;
  now: number;
  algorithms?: SupportedAlgorithms;
  /** Which of the record's protocols to build; default its (first) protocol. */
  protocol?: DcApiProtocol;
  /** org-iso-mdoc: the DeviceRequest and EncryptionInfo drawn for this authorization (buildAnnexCRequest). */
  annexC?: Pick<AnnexCRequest, 'deviceRequest' | 'encryptionInfo'>;
}): Promise<DigitalCredentialGetRequest> {
  const { record, signing, config, now, algorithms } = args;
  const r = record.request;
  if ((r.responseMode !== 'dc_api' && r.responseMode !== 'dc_api.jwt') || r.query.type !== 'DCQL') {
    throw new TypeError('buildDigitalCredentialGetRequest needs a DC API record with a DCQL query');
  }
  const protocol = args.protocol ?? r.protocol ?? 'openid4vp-v1-unsigned';
  if (protocol === 'org-iso-mdoc') {
    if (!args.annexC) throw new TypeError('buildDigitalCredentialGetRequest needs the Annex C request for protocol org-iso-mdoc');
    return { protocol, data: { deviceRequest: args.annexC.deviceRequest, encryptionInfo: args.annexC.encryptionInfo } };
  }
  if (protocol === 'openid4vp-v1-unsigned') {
    const data: UnsignedDcApiRequestData = {
      response_type: 'vp_token',
      response_mode: r.responseMode,
      nonce: r.nonce,
      client_metadata: buildClientMetadata(record, config, algorithms),
      dcql_query: r.query.dcql,
    };
    if (r.transactionData !== undefined) data.transaction_data = r.transactionData;
    if (r.verifierInfo !== undefined) data.verifier_info = r.verifierInfo;
    return { protocol, data };
  }
  const objectArgs = { record, signing, config, now, ...(algorithms ? { algorithms } : {}), ...(args.registrationInfo ? { registrationInfo: args.registrationInfo } : {}) };
  if (protocol === 'openid4vp-v1-signed') return { protocol, data: { request: await signRequestObject(objectArgs) } };
  const signers = args.signers ?? [{ material: signing, clientId: r.clientId!, retired: false }];
  return { protocol, data: await signMultiSignedRequestObject({ ...objectArgs, signers }) };
}

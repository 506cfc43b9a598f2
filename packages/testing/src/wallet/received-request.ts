/** A DCQL query as the wallet reads it (only the members it acts on are typed). */
export interface WalletDcqlQuery {
  credentials: {
    id: string;
    format: string;
    multiple?: boolean;
    meta?: { vct_values?: string[]; doctype_value?: string; type_values?: string[][]; [k: string]: unknown };
    claims?: { id?: string; path: (string | number | null)[]; values?: unknown[] }[];
    require_cryptographic_holder_binding?: boolean;
    [k: string]: unknown;
  }[];
  credential_sets?: { options: string[][]; required?: boolean }[];
  [k: string]: unknown;
}

/** A Presentation Exchange definition as the wallet reads it. */
export interface WalletPresentationDefinition {
  id: string;
  input_descriptors: { id: string; format?: Record<string, unknown>; constraints?: Record<string, unknown>; [k: string]: unknown }[];
  [k: string]: unknown;
}

/** An authorization request after the wallet fetched and verified it. */
export interface ReceivedRequest {
  /** Every request parameter (the verified request object payload, or the unsigned DC API data). */
  params: Record<string, unknown>;
  /** Full client_id with its prefix; absent in unsigned DC API requests. */
  clientId?: string;
  responseType: string;
  responseMode: string;
  nonce: string;
  state?: string;
  responseUri?: string;
  dcqlQuery?: WalletDcqlQuery;
  presentationDefinition?: WalletPresentationDefinition;
  /** base64url entries exactly as sent (hashes are taken over these strings). */
  transactionData?: string[];
  clientMetadata?: Record<string, unknown>;
  /** DC API requests: the origin the browser would report. */
  origin?: string;
  /** The `wallet_nonce` this wallet posted (request_uri_method=post). */
  walletNonce?: string;
  /** The signed request object as received. */
  requestObject?: string;
  /** `x5c` of the request object (standard base64 DER); multi-signed: of the trusted signature used. */
  x5c?: string[];
  /** Multi-signed DC API requests: every signature as checked (client_id, x5c, trusted by this wallet). */
  signatures?: { clientId: string; x5c: string[]; trusted: boolean }[];
}

/** True for DC API response modes, where the audience is `origin:<origin>`. */
export const isDcApiRequest = (request: ReceivedRequest): boolean => request.responseMode === 'dc_api' || request.responseMode === 'dc_api.jwt';

/** Audience of holder-binding proofs: the full client_id, or `origin:<origin>` over the DC API (even when signed). */
export function expectedAudience(request: ReceivedRequest): string {
  if (isDcApiRequest(request)) {
    if (!request.origin) throw new Error('test wallet: a DC API request needs the origin');
    return `origin:${request.origin}`;
  }
  if (!request.clientId) throw new Error('test wallet: the request has no client_id');
  return request.clientId;
}

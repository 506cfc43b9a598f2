import type { P256KeyPair } from './holder-key.js';

/** DCQL claim path: object keys, array indices, or null for every array element. */
export type ClaimPath = (string | number | null)[];

export interface SdJwtWalletCredential {
  format: 'dc+sd-jwt';
  id: string;
  /** Issued compact SD-JWT (`jwt~d1~…~`). */
  compact: string;
  vct: string;
  /** Absent when the credential has no `cnf` (no holder binding possible). */
  holderKey?: P256KeyPair;
}

export interface MdocWalletCredential {
  format: 'mso_mdoc';
  id: string;
  docType: string;
  /** base64url CBOR IssuerSigned. */
  issuerSigned: string;
  deviceKey: P256KeyPair;
}

export interface JwtVcWalletCredential {
  format: 'jwt_vc_json';
  id: string;
  jwt: string;
  dataModel: '1.1' | '2.0';
  types: string[];
  /** The key behind the holder did:jwk the credential was issued to. */
  holderKey: P256KeyPair;
}

export type WalletCredential = SdJwtWalletCredential | MdocWalletCredential | JwtVcWalletCredential;

/**
 * Knobs that make a presentation wrong in exactly one way, for negative tests. Fields that do not
 * apply to a format are ignored (for example `sdHash` on an mdoc).
 */
export interface PresentationTamper {
  /** SD-JWT without KB-JWT; a JWT VC sent bare instead of inside a VP. */
  omitHolderBinding?: boolean;
  /** KB-JWT, VP or deviceSignature signed with an unrelated key. */
  wrongHolderKey?: boolean;
  /** Nonce in the KB-JWT / VP, and in the mdoc SessionTranscript. */
  nonce?: string;
  /** `aud` of the KB-JWT / VP; the client_id (or origin) in the mdoc SessionTranscript. */
  audience?: string;
  /** Added to `iat` of the KB-JWT / VP (negative = in the past). */
  iatOffsetSeconds?: number;
  /** KB-JWT `sd_hash` over something else than the presented SD-JWT. */
  sdHash?: 'wrong';
  /** Replaces the computed `transaction_data_hashes`. */
  transactionDataHashes?: string[];
}

/** One presentation to put under a query id in `vp_token`. */
export interface Presentation {
  credential: WalletCredential;
  /**
   * What to disclose. SD-JWT: claim paths (`['address', 'locality']`); mdoc: `[namespace,
   * element]` paths; ignored for JWT VCs. Default: the paths the query asks for, or everything
   * (when the query names no claims; an SD-JWT given explicitly in `presentations`: everything).
   */
  disclose?: ClaimPath[];
  tamper?: PresentationTamper;
}

/**
 * Output of the format policy: every presentation of a wallet response, decoded but not yet
 * trusted. Everything here is JSON-serializable (bytes are base64url strings) so that remote
 * validator/verifier services receive the same structure as in-process clients.
 */
export type JsonObject = Record<string, unknown>;

export interface DecodedJwt {
  /** Compact serialization exactly as received. */
  compact: string;
  header: JsonObject;
  payload: JsonObject;
}

interface PresentationBase {
  /** `[queryId, index]` (DCQL) or `[descriptorId, index]` (Presentation Exchange). */
  path: (string | number)[];
  /** DCQL credential query id, or PE input descriptor id. */
  queryId: string;
  index: number;
  /** Format identifier from the query / descriptor map (`dc+sd-jwt`, `mso_mdoc`, `jwt_vp_json`, ...). */
  format: string;
}

export interface SdJwtDisclosure {
  /** The disclosure exactly as received (base64url). */
  encoded: string;
  /** base64url digest computed with the credential's `_sd_alg`. */
  digest: string;
  salt: string;
  /** Absent for array element disclosures. */
  key?: string;
  value: unknown;
}

export interface ParsedSdJwt extends PresentationBase {
  kind: 'sd-jwt';
  /** The whole presentation string as received. */
  raw: string;
  issuerJwt: DecodedJwt;
  disclosures: SdJwtDisclosure[];
  kbJwt?: DecodedJwt;
  /** Issuer-signed payload with disclosed claims resolved (`_sd`, `_sd_alg` and `...` removed). */
  claims: JsonObject;
  vct?: string;
}

export interface MdocIssuerSignedItem {
  digestID: number;
  elementIdentifier: string;
  /** CBOR value converted to JSON: bytes → base64url, dates → ISO strings. */
  elementValue: unknown;
}

export interface ParsedMdocDocument {
  docType: string;
  /** Issuer-signed elements by namespace. */
  nameSpaces: Record<string, MdocIssuerSignedItem[]>;
  hasDeviceSignature: boolean;
  hasDeviceMac: boolean;
}

export interface ParsedMdoc extends PresentationBase {
  kind: 'mdoc';
  /** base64url DeviceResponse as received. */
  raw: string;
  version: string;
  status: number;
  documents: ParsedMdocDocument[];
}

export interface ParsedJwtVc {
  kind: 'jwt-vc';
  jwt: DecodedJwt;
  /** VCDM 1.1 (`vc` claim) or 2.0 (VC-JOSE-COSE, the payload is the credential). */
  dataModel: '1.1' | '2.0';
  /** The credential object (`vc` claim for 1.1, the payload for 2.0). */
  credential: JsonObject;
  types: string[];
}

export interface ParsedJwtVcPresentation extends PresentationBase, Omit<ParsedJwtVc, 'kind'> {
  kind: 'jwt-vc';
  raw: string;
}

export interface ParsedJwtVp extends PresentationBase {
  kind: 'jwt-vp';
  raw: string;
  jwt: DecodedJwt;
  dataModel: '1.1' | '2.0';
  /** The presentation object (`vp` claim for 1.1, the payload for 2.0). */
  presentation: JsonObject;
  credentials: ParsedJwtVc[];
}

export interface ParsedLdp extends PresentationBase {
  kind: 'ldp';
  raw: JsonObject;
}

export type ParsedPresentation = ParsedSdJwt | ParsedMdoc | ParsedJwtVcPresentation | ParsedJwtVp | ParsedLdp;

/** A SIOPv2 ID token from a `vp_token id_token` response. */
export interface ParsedIdToken extends DecodedJwt {
  path: (string | number)[];
}

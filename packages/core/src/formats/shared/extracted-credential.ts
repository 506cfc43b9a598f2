/** Claims the RP may read from `/credentials` once an authorization is authorized. */
export interface ExtractedCredential {
  path: (string | number)[];
  /** Credential format identifier as in the query (`dc+sd-jwt`, `mso_mdoc`, `jwt_vc_json`, ...). */
  format: string;
  /** `vct` (SD-JWT VC), `docType` (mdoc) or the most specific W3C type. */
  credentialType: string;
  /** Disclosed claims (SD-JWT), `{namespace: {element: value}}` (mdoc), `credentialSubject` (W3C). */
  claims: Record<string, unknown>;
}

import * as v from 'valibot';
import { resultPathSchema } from './policy-result.js';

/** Claims the RP may read from `/credentials` once an authorization is authorized. */
export const extractedCredentialSchema = v.pipe(
  v.object({
    path: resultPathSchema,
    /** Credential format identifier as in the query (`dc+sd-jwt`, `mso_mdoc`, `jwt_vc_json`, ...). */
    format: v.string(),
    /** `vct` (SD-JWT VC), `docType` (mdoc) or the most specific W3C type. */
    credentialType: v.string(),
    /**
     * Disclosed claims (SD-JWT), `credentialSubject` (W3C), or the mdoc data elements by element
     * identifier (`{given_name, birth_date, …}`). When two namespaces of one mdoc carry the same
     * identifier, the doctype's own namespace wins (equal to the docType, or the docType without its
     * last label: `org.iso.18013.5.1` for `org.iso.18013.5.1.mDL`), then the first in document order.
     */
    claims: v.record(v.string(), v.unknown()),
    /** mdoc only: every data element under its namespace, `{namespace: {element: value}}`. */
    namespaces: v.optional(v.record(v.string(), v.record(v.string(), v.unknown()))),
  }),
  v.title('Credential'),
);
export type ExtractedCredential = v.InferOutput<typeof extractedCredentialSchema>;

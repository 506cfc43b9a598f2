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
    /** Disclosed claims (SD-JWT), `{namespace: {element: value}}` (mdoc), `credentialSubject` (W3C). */
    claims: v.record(v.string(), v.unknown()),
  }),
  v.title('Credential'),
);
export type ExtractedCredential = v.InferOutput<typeof extractedCredentialSchema>;

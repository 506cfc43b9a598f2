import * as v from 'valibot';

const jsonObject = v.record(v.string(), v.unknown());

export { authorizationStatusSchema, terminalStatusSchema } from '../model/authorization-record.js';

export { policyErrorSchema, policyResultSchema } from '../model/policy-result.js';
export { extractedCredentialSchema } from '../model/extracted-credential.js';

/** The `{authorizationId}` path parameter. */
export const AUTHORIZATION_ID = v.object({ authorizationId: v.pipe(v.string(), v.description('The authorizationId returned by createAuthorization.')) });

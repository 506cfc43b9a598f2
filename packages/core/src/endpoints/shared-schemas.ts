import * as v from 'valibot';

const jsonObject = v.record(v.string(), v.unknown());

export { authorizationStatusSchema, terminalStatusSchema } from '../model/authorization-record.js';

export { policyErrorSchema, policyResultSchema } from '../model/policy-result.js';
export { extractedCredentialSchema } from '../model/extracted-credential.js';

/** `{authorizationId}` path parameter. */
export const AUTHORIZATION_ID = { authorizationId: 'The authorizationId returned by createAuthorization.' };

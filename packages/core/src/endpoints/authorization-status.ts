import * as v from 'valibot';
import { isProcessing, loadForInstance } from '../authorization/transitions.js';
import type { AuthorizationRecord } from '../model/authorization-record.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { CoreResponse } from '../wire/core-request.js';
import { jsonResponse } from '../wire/responses.js';
import { defineEndpoint } from './endpoint.js';
import { AUTHORIZATION_ID, authorizationStatusSchema } from './shared-schemas.js';

export const statusResponseSchema = v.pipe(
  v.object({
    status: authorizationStatusSchema,
    /** Present (true) while a wallet response is claimed and being evaluated. */
    processing: v.optional(v.literal(true)),
  }),
  v.title('AuthorizationStatus'),
);
export type StatusResponse = v.InferOutput<typeof statusResponseSchema>;

/**
 * `{status}`, plus `processing: true` while a wallet response is claimed and being evaluated
 * (an extra member, so clients of the hosted API are unaffected). A claim that outlives its
 * deadline ends `error` (`authorizer.processing_abandoned`) on this read.
 */
export function getStatus(ctx: AuthorizerContext, instanceId: string, id: string): Promise<StatusResponse> {
  // A `then` rather than an async frame: relying parties poll this route.
  return loadForInstance(ctx, instanceId, id).then((record) => statusOf(record, ctx.clock.now()));
}

/** The status body of a record (shared with the event stream, whose events carry the same body). */
export const statusOf = (record: AuthorizationRecord, now: number): StatusResponse =>
  isProcessing(record, now) ? { status: record.status, processing: true } : { status: record.status };

/** The status route's answer for a record. */
export const statusAnswer = (record: AuthorizationRecord, now: number): CoreResponse => jsonResponse(200, statusOf(record, now));

export const authorizationStatusEndpoint = defineEndpoint({
  operationId: 'getAuthorizationStatus',
  name: 'authorizations.status',
  method: 'GET',
  path: '/openid4/vp/v1_0/authorizations/{authorizationId}/status',
  audience: 'rp',
  summary: 'Read the status of an authorization (poll until it is terminal)',
  pathParams: AUTHORIZATION_ID,
  responses: {
    200: { description: 'The current status.', contentType: 'application/json', schema: statusResponseSchema },
  },
  errors: [404, 503],
  run: ({ ctx, params, instance }) => loadForInstance(ctx, instance.id, params[0]!).then((record) => statusAnswer(record, ctx.clock.now())),
});

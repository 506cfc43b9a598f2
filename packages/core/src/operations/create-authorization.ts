import { buildAuthorization, type CreateAuthorizationResponse } from '../request/build-authorization.js';
import { parseCreateAuthorizationBody } from '../request/create-authorization-body.js';
import { enforceHaipOnCreate } from '../request/haip-rules.js';
import { acceptedAlgorithms } from '../request/accepted-algorithms.js';
import { randomId } from '../crypto/secrets.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';

export async function createAuthorization(ctx: AuthorizerContext, instance: InstanceRuntime, body: unknown): Promise<CreateAuthorizationResponse> {
  const parsed = parseCreateAuthorizationBody(body);
  const signing = await instance.signing();
  const algorithms = acceptedAlgorithms(instance.verifier, parsed.profile);
  if (parsed.profile === 'haip') enforceHaipOnCreate(parsed, { clientIdPrefix: instance.config.openId4vp.clientIdPrefix, signing, algorithms });
  const now = ctx.clock.now();
  const { record, response } = await buildAuthorization({
    id: randomId(16),
    instanceId: instance.id,
    body: parsed,
    config: instance.config,
    signing,
    publicBaseUrl: ctx.publicBaseUrl,
    now,
    algorithms,
  });
  // Kept past its expiry (processing grace + retention) so the RP can still read the outcome.
  await ctx.store.create(record, instance.recordTtlMs);
  ctx.emit({ type: 'authorization.created', instanceId: record.instanceId, authorizationId: record.id, status: record.status, at: now });
  if (record.status === 'pending') {
    ctx.emit({ type: 'authorization.pending', instanceId: record.instanceId, authorizationId: record.id, status: 'pending', previousStatus: 'created', at: now });
  }
  return response;
}

/** Every instrument this package creates: its name, kind, unit, attributes and meaning. */
export const METRICS = {
  requestDuration: {
    name: 'vp_authorizer.request.duration',
    kind: 'histogram',
    unit: 's',
    attributes: ['vp.operation', 'http.request.method', 'http.response.status_code'],
    description: 'Time from receiving a request to its answer, per operation and status.',
  },
  decisions: {
    name: 'vp_authorizer.decisions',
    kind: 'counter',
    unit: '{decision}',
    attributes: ['vp.instance_id', 'vp.authorization.status'],
    description: 'Wallet responses decided, by the status they ended with (authorized, rejected, error).',
  },
  policyDuration: {
    name: 'vp_authorizer.policy.duration',
    kind: 'histogram',
    unit: 's',
    attributes: ['vp.policy', 'vp.policy.outcome'],
    description: 'Duration of the format policy and of each validator and verifier call, by outcome (passed, failed, error).',
  },
  storeDuration: {
    name: 'vp_authorizer.store.duration',
    kind: 'histogram',
    unit: 's',
    attributes: ['vp.store.operation'],
    description: 'Duration of each store call.',
  },
  storeErrors: {
    name: 'vp_authorizer.store.errors',
    kind: 'counter',
    unit: '{error}',
    attributes: ['vp.store.operation', 'error.type'],
    description: 'Store calls that failed, by operation and error type (`store.unavailable` when the engine is unreachable).',
  },
} as const;

import { describe, expect, it } from 'vitest';
import { createTestClock, describeStoreContract } from '@vp-authorizer/testing/contracts';
import { loggingMapStore } from '../src/logging-map-store.js';

// The same suite the memory and Redis stores run: this is all a custom store needs. This one
// carries no webhooks (no webhook outbox), which the suite checks too.
describeStoreContract('loggingMapStore (examples/custom-store)', {
  webhookOutbox: false,
  async create() {
    const clock = createTestClock();
    const store = loggingMapStore({ now: () => clock.now(), log: () => undefined });
    return { store, clock };
  },
});

describe('loggingMapStore logs', () => {
  it('one line per operation, without response-code keys or record contents', async () => {
    const lines: string[] = [];
    const store = loggingMapStore({ log: (line) => lines.push(line) });
    await store.put('instance-1:c0de-hash', { instanceId: 'instance-1', authorizationId: 'authz-1' }, 60_000);
    await store.consume('instance-1:c0de-hash');
    await store.consume('instance-1:c0de-hash');
    expect(lines).toEqual(['store.put instance=instance-1 ttlMs=60000', 'store.consume → hit', 'store.consume → miss']);
    expect(lines.join('\n')).not.toContain('c0de-hash');
  });
});

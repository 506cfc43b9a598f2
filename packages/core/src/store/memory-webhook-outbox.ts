import type { OutboxDelivery, OutboxLease, OutboxRef, WebhookOutbox } from '../model/webhook-outbox.js';

interface Held {
  delivery: OutboxDelivery;
  lease: OutboxLease;
}

/**
 * The webhook outbox of the memory store: shared by the authorizers of one process that share the
 * store, gone with the process. Single-threaded, so every method is atomic. Takeover walks the
 * deliveries (at most maxPerInstance per instance): fine for what one process holds.
 */
export function memoryWebhookOutbox(): WebhookOutbox {
  const held = new Map<string, Held>();
  const counts = new Map<string, number>();
  const key = (ref: OutboxRef) => `${ref.instanceId.length}:${ref.instanceId}${ref.id}`;
  const copy = (delivery: OutboxDelivery): OutboxDelivery => ({ ...delivery });

  return {
    async addWebhook(delivery, lease, maxPerInstance) {
      if (held.has(key(delivery))) return 'duplicate';
      const count = counts.get(delivery.instanceId) ?? 0;
      if (count >= maxPerInstance) return 'full';
      held.set(key(delivery), { delivery: copy(delivery), lease: { ...lease } });
      counts.set(delivery.instanceId, count + 1);
      return 'queued';
    },

    async renewWebhooks(refs, lease) {
      let renewed = 0;
      for (const ref of refs) {
        const entry = held.get(key(ref));
        if (entry === undefined || entry.lease.holder !== lease.holder) continue;
        entry.lease.until = lease.until;
        renewed++;
      }
      return renewed;
    },

    async takeOverWebhooks(now, lease, limit) {
      const expired = [...held.values()].filter((entry) => entry.lease.until <= now).sort((a, b) => a.lease.until - b.lease.until);
      return expired.slice(0, Math.max(0, limit)).map((entry) => {
        entry.lease = { ...lease };
        return copy(entry.delivery);
      });
    },

    async recordWebhookAttempts(ref, holder, attempts) {
      const entry = held.get(key(ref));
      if (entry === undefined || entry.lease.holder !== holder) return false;
      entry.delivery.attempts = attempts;
      return true;
    },

    async removeWebhook(ref, holder) {
      const entry = held.get(key(ref));
      if (entry === undefined || entry.lease.holder !== holder) return false;
      held.delete(key(ref));
      const count = (counts.get(ref.instanceId) ?? 1) - 1;
      if (count > 0) counts.set(ref.instanceId, count);
      else counts.delete(ref.instanceId);
      return true;
    },
  };
}

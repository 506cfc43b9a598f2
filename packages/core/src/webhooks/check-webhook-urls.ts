import type { ResolvedInstanceOptions } from '../config/authorizer-options.js';
import { ConfigError } from '../errors/config-error.js';
import { checkOutboundUrl, type OutboundFetchPolicy } from '../outbound/outbound-fetch-policy.js';

/**
 * Refuse at startup an instance webhook URL the outbound policy would refuse at every delivery
 * (scheme, port, IP literal, single-label or localhost name). Names that resolve to non-public
 * addresses can only be found when resolved, at delivery time (and are then given up).
 */
export function checkWebhookUrls(instances: readonly ResolvedInstanceOptions[], policy: OutboundFetchPolicy): void {
  const issues: { path: string; message: string }[] = [];
  instances.forEach((instance, i) => {
    const url = instance.webhooks?.url;
    if (url === undefined) return;
    try {
      checkOutboundUrl(url, policy);
    } catch {
      issues.push({
        path: `instances.${i}.webhooks.url`,
        message: 'webhooks.url is outside the outbound-fetch policy: it must be https on the default port to a public DNS name, without credentials (webhookDelivery.outbound with dangerouslyAllowAnyDestination lifts this, for tests only)',
      });
    }
  });
  if (issues.length > 0) throw new ConfigError('Invalid authorizer options:', issues);
}

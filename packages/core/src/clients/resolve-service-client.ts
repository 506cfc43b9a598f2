import type { ServiceClientReference } from '../config/instance-config.js';
import { ConfigError } from '../errors/config-error.js';

/**
 * Picks the client a policy's service reference names: `{type: 'managed'}` → the instance's own
 * client; `{type: 'instance', resourceId}` → the client registered under that name. Throws
 * ConfigError (at construction) for a missing managed client or an unknown name, listing the
 * known names. `what` is the config path, for example `policies.validate.validator`.
 */
export function resolveServiceClient<T>(ref: ServiceClientReference, registry: Record<string, T>, managed: T | undefined, what: string, missing?: { instancePath: string; role: 'validator' | 'verifier' }): T {
  if (ref.type === 'managed') {
    if (managed === undefined) {
      if (missing) {
        const { instancePath, role } = missing;
        const factory = role === 'validator' ? 'localValidator()' : 'localVerifier()';
        const policy = role === 'validator' ? 'validate' : 'verify';
        throw new ConfigError(`${instancePath} has no ${role}: pass \`${role}: ${factory}\` from @vp-authorizer/local or a client of your own`, [
          { path: `${instancePath}.${role}`, message: `required: pass \`${factory}\` from @vp-authorizer/local or a client of your own (or set config.policies.${policy}.skip, or name a client registered in \`clients\` with config.policies.${policy}.${role} = {type: "instance", resourceId})` },
        ]);
      }
      throw new ConfigError(`${what} is {type: "managed"} but no managed client was provided`, [{ path: what, message: 'provide the client in the authorizer options, or reference a registered one with {type: "instance", resourceId}' }]);
    }
    return managed;
  }
  // Own properties only: "constructor" or "__proto__" must not resolve to Object.prototype members.
  const client = Object.hasOwn(registry, ref.resourceId) ? registry[ref.resourceId] : undefined;
  if (client === undefined) {
    const known = Object.keys(registry);
    throw new ConfigError(`${what} references the unknown service instance "${ref.resourceId}"`, [
      { path: `${what}.resourceId`, message: known.length === 0 ? 'no service instances are registered' : `known instances: ${known.map((k) => `"${k}"`).join(', ')}` },
    ]);
  }
  return client;
}

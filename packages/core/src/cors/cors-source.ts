import type { CorsConfig, CorsConfigInput } from '../config/cors-config.js';
import { ConfigError } from '../errors/config-error.js';
import { resolveCorsConfig } from './resolve-cors-config.js';

/** Anything that knows its CORS configuration: an Authorizer (from its instances' `cors`). */
export interface CorsConfigProvider {
  corsConfig(): CorsConfig;
}

/** What the adapters' `cors(…)` take: an explicit `cors` object, or the authorizer to take it from. */
export type CorsSource = CorsConfigInput | CorsConfigProvider;

/** The validated CORS configuration of a source; throws ConfigError when it is invalid or ambiguous. */
export function resolveCorsSource(source: CorsSource = {}): CorsConfig {
  const provider = source as Partial<CorsConfigProvider>;
  return typeof provider.corsConfig === 'function' ? provider.corsConfig() : resolveCorsConfig(source as CorsConfigInput);
}

/**
 * The one CORS configuration for a mount that serves every instance: a preflight carries no API
 * key, so the answer cannot depend on the instance. Instances without a `cors` object take no
 * part; those with one must agree (lists compared as sets), else a ConfigError names them. None
 * → the defaults (CORS off).
 */
export function corsConfigFromInstances(instances: readonly { id: string; config?: unknown }[]): CorsConfig {
  let chosen: { id: string; config: CorsConfig; key: string } | undefined;
  for (const instance of instances) {
    const input = (instance.config as { cors?: CorsConfigInput } | undefined)?.cors;
    if (input === undefined) continue;
    const config = resolveCorsConfig(input);
    const key = canonical(config);
    if (!chosen) chosen = { id: instance.id, config, key };
    else if (chosen.key !== key) {
      throw new ConfigError(
        `Instances "${chosen.id}" and "${instance.id}" configure different cors objects, but one mount serves every instance and a preflight names none: give them the same cors object, or pass one explicitly to cors(…).`,
      );
    }
  }
  return chosen?.config ?? resolveCorsConfig();
}

const canonical = (config: CorsConfig): string =>
  JSON.stringify(Object.entries(config).sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => [name, Array.isArray(value) ? [...value].map((x) => String(x).toLowerCase()).sort() : value]));

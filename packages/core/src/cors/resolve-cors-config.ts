import { corsConfigSchema, type CorsConfig, type CorsConfigInput } from '../config/cors-config.js';
import { parseConfig } from '../config/validate-config.js';

/**
 * Validate a `cors` object once, when a CORS middleware is built. Throws ConfigError with a
 * readable list of problems (for example credentials: true with origin "*").
 */
export function resolveCorsConfig(input: CorsConfigInput = {}): CorsConfig {
  return parseConfig(corsConfigSchema, input, 'cors configuration');
}

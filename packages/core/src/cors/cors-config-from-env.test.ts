import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import { corsConfigFromEnv } from './cors-config-from-env.js';
import { resolveCorsConfig } from './resolve-cors-config.js';

describe('corsConfigFromEnv', () => {
  it('is off by default and keeps the default origin', () => {
    expect(corsConfigFromEnv({})).toEqual({ enabled: false });
    expect(resolveCorsConfig(corsConfigFromEnv({})).origin).toEqual(['*']);
  });

  it.each(['true', '1', 'TRUE', ' true '])('turns CORS on with %j', (value) => {
    expect(corsConfigFromEnv({ EXPRESS_CORS_ENABLED: value })?.enabled).toBe(true);
  });

  it.each(['false', '0', ''])('leaves CORS off with %j', (value) => {
    expect(corsConfigFromEnv({ EXPRESS_CORS_ENABLED: value })?.enabled).toBe(false);
  });

  it('rejects an unrecognised flag instead of guessing', () => {
    expect(() => corsConfigFromEnv({ EXPRESS_CORS_ENABLED: 'yes' })).toThrow(ConfigError);
  });

  it('splits EXPRESS_CORS_ORIGIN on commas and trims', () => {
    const input = corsConfigFromEnv({ EXPRESS_CORS_ENABLED: 'true', EXPRESS_CORS_ORIGIN: ' https://a.example , https://b.example:8443,, ' });
    expect(input).toEqual({ enabled: true, origin: ['https://a.example', 'https://b.example:8443'] });
    expect(resolveCorsConfig(input).origin).toEqual(['https://a.example', 'https://b.example:8443']);
  });

  it('produces an object the cors schema validates (bad origins fail there)', () => {
    expect(() => resolveCorsConfig(corsConfigFromEnv({ EXPRESS_CORS_ORIGIN: 'not an origin' }))).toThrow(ConfigError);
  });
});

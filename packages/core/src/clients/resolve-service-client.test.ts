import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import { resolveServiceClient } from './resolve-service-client.js';

const managed = { name: 'managed' };
const registry = { 'eu-validator': { name: 'eu' }, backup: { name: 'backup' } };

describe('resolveServiceClient', () => {
  it('returns the managed client for {type: "managed"}', () => {
    expect(resolveServiceClient({ type: 'managed' }, registry, managed, 'policies.validate.validator')).toBe(managed);
  });

  it('returns the registered client for {type: "instance", resourceId}', () => {
    expect(resolveServiceClient({ type: 'instance', resourceId: 'backup' }, registry, managed, 'policies.verify.verifier')).toBe(registry.backup);
  });

  it('throws ConfigError for an unknown resourceId, listing the known names', () => {
    let error: unknown;
    try {
      resolveServiceClient({ type: 'instance', resourceId: 'nope' }, registry, managed, 'policies.validate.validator');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('"nope"');
    expect((error as ConfigError).issues).toEqual([{ path: 'policies.validate.validator.resourceId', message: 'known instances: "eu-validator", "backup"' }]);
  });

  it('does not resolve prototype members as instances', () => {
    expect(() => resolveServiceClient({ type: 'instance', resourceId: 'constructor' }, {}, managed, 'x')).toThrow(/no service instances are registered/);
    expect(() => resolveServiceClient({ type: 'instance', resourceId: '__proto__' }, registry, managed, 'x')).toThrow(ConfigError);
  });

  it('throws ConfigError when the managed client is missing', () => {
    expect(() => resolveServiceClient({ type: 'managed' }, registry, undefined, 'policies.verify.verifier')).toThrow(ConfigError);
    expect(() => resolveServiceClient({ type: 'managed' }, registry, undefined, 'policies.verify.verifier')).toThrow(/policies\.verify\.verifier/);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import { corsConfigFromInstances, resolveCorsSource } from './cors-source.js';
import { resolveCorsConfig } from './resolve-cors-config.js';

const A = 'https://a.example';
const B = 'https://b.example';

describe('corsConfigFromInstances', () => {
  it('is the defaults (CORS off) when no instance sets cors', () => {
    expect(corsConfigFromInstances([{ id: 'one' }, { id: 'two', config: {} }])).toEqual(resolveCorsConfig());
  });

  it('takes the cors object instances agree on; instances without one take no part', () => {
    const config = corsConfigFromInstances([
      { id: 'one', config: { cors: { enabled: true, origin: [A, B], allowHeaders: ['Authorization'] } } },
      { id: 'two' },
      { id: 'three', config: { cors: { enabled: true, origin: [`${B}/`, A], allowHeaders: ['authorization'] } } },
    ]);
    expect(config).toMatchObject({ enabled: true, origin: [A, B], allowHeaders: ['Authorization'] });
  });

  it('refuses instances whose cors objects differ, naming them', () => {
    const differ = () =>
      corsConfigFromInstances([
        { id: 'one', config: { cors: { enabled: true, origin: [A] } } },
        { id: 'two', config: { cors: { enabled: true, origin: [B] } } },
      ]);
    expect(differ).toThrow(ConfigError);
    expect(differ).toThrow(/Instances "one" and "two" configure different cors objects/);
  });
});

describe('resolveCorsSource', () => {
  it('validates an explicit cors object', () => {
    expect(resolveCorsSource({ enabled: true, origin: [A] }).origin).toEqual([A]);
    expect(() => resolveCorsSource({ enabled: true, credentials: true })).toThrow(/credentials/);
  });

  it('asks a provider (an authorizer) for its configuration', () => {
    const config = resolveCorsConfig({ enabled: true, origin: [B] });
    expect(resolveCorsSource({ corsConfig: () => config })).toBe(config);
  });
});

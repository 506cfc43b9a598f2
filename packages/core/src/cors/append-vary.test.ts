import { describe, expect, it } from 'vitest';
import { appendVary } from './append-vary.js';

describe('appendVary', () => {
  it('appends to an existing value instead of overwriting it', () => {
    expect(appendVary('Accept-Encoding', 'Origin')).toBe('Accept-Encoding, Origin');
  });
  it('starts a value when there is none', () => {
    expect(appendVary(undefined, 'Origin')).toBe('Origin');
    expect(appendVary('', 'Origin')).toBe('Origin');
  });
  it('does not repeat a field (case-insensitive)', () => {
    expect(appendVary('origin, Accept', 'Origin')).toBe('origin, Accept');
  });
  it('accepts array values (Node getHeader) and several fields at once', () => {
    expect(appendVary(['Accept', 'Cookie'], 'Origin, Access-Control-Request-Headers')).toBe('Accept, Cookie, Origin, Access-Control-Request-Headers');
  });
  it('keeps "*" as the whole value', () => {
    expect(appendVary('*', 'Origin')).toBe('*');
    expect(appendVary('Accept', '*')).toBe('*');
  });
});

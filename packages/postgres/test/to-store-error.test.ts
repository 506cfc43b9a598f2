import { describe, expect, it } from 'vitest';
import { StoreUnavailableError, isStoreUnavailableError } from '@vp-authorizer/core';
import { toStoreError } from '../src/to-store-error.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('toStoreError', () => {
  it('maps connection failures, pool waits and transient SQLSTATEs to StoreUnavailableError naming only the kind', () => {
    const cases: [Error, string][] = [
      [withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'ECONNREFUSED'],
      [withCode('ECONNRESET'), 'ECONNRESET'],
      [new Error('timeout exceeded when trying to connect'), 'timeout exceeded when trying to connect'],
      [new Error('Connection terminated unexpectedly'), 'connection terminated'],
      [new Error('Query read timeout'), 'query read timeout'],
      [withCode('57014', 'canceling statement due to statement timeout'), 'statement timeout'],
      [withCode('57P01', 'terminating connection due to administrator command'), 'server shutting down'],
      [withCode('57P03', 'the database system is starting up'), 'server starting up'],
      [withCode('08006'), 'connection failure'],
      [withCode('53300', 'sorry, too many clients already'), 'insufficient resources'],
      [withCode('40001'), 'serialization failure'],
      [withCode('25006'), 'read-only server'],
    ];
    for (const [error, kind] of cases) {
      const mapped = toStoreError(error);
      expect(isStoreUnavailableError(mapped), error.message).toBe(true);
      expect((mapped as Error).message).toBe(`PostgreSQL is unavailable (${kind}).`);
      expect((mapped as Error).cause).toBe(error);
    }
  });

  it('leaves misconfiguration and bugs alone: wrong password, missing table, syntax error, unique violation, non-errors', () => {
    for (const error of [withCode('28P01', 'password authentication failed'), withCode('42P01'), withCode('42601'), withCode('23505'), new TypeError('x')]) {
      expect(toStoreError(error)).toBe(error);
    }
    expect(toStoreError('text')).toBe('text');
    const already = new StoreUnavailableError();
    expect(toStoreError(already)).toBe(already);
  });
});

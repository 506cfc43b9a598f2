import { describe, expect, it } from 'vitest';
import { ReplyError } from 'ioredis';
import { StoreUnavailableError } from '@vp-authorizer/core';
import { toStoreError } from '../src/to-store-error.js';

const reply = (message: string) => new ReplyError(message);

describe('toStoreError', () => {
  it('Cluster "Too many Cluster redirections" is a StoreUnavailableError, not a 500', () => {
    // What ioredis' Cluster rejects with once MOVED/ASK/TRYAGAIN kept bouncing (resharding, failover).
    const error = new Error('Too many Cluster redirections. Last error: ReplyError: TRYAGAIN Multiple keys request during rehashing of slot');
    const mapped = toStoreError(error);
    expect(mapped).toBeInstanceOf(StoreUnavailableError);
    expect((mapped as Error).message).toBe('Redis is unavailable (too many cluster redirections).');
    expect((mapped as Error).cause).toBe(error);
  });

  it.each(['Cluster is disconnected.', 'Node is disconnected'])('maps the Cluster connection error %j to StoreUnavailableError', (message) => {
    expect(toStoreError(new Error(message))).toBeInstanceOf(StoreUnavailableError);
  });

  it.each([
    'CLUSTERDOWN The cluster is down',
    'TRYAGAIN Multiple keys request during rehashing of slot',
    'LOADING Redis is loading the dataset in memory',
    'MASTERDOWN Link with MASTER is down',
    'READONLY You can\'t write against a read only replica.',
  ])('maps the transient reply %j to StoreUnavailableError', (message) => {
    const mapped = toStoreError(reply(message));
    expect(mapped).toBeInstanceOf(StoreUnavailableError);
    expect((mapped as Error).message).toBe(`Redis is unavailable (${message.split(' ')[0]}).`);
  });

  it.each([
    'NOAUTH Authentication required.',
    'WRONGPASS invalid username-password pair or user is disabled.',
    'NOPERM this user has no permissions to run the \'getdel\' command',
  ])('keeps the misconfiguration %j as an unexpected error (500): retrying cannot fix it', (message) => {
    const error = reply(message);
    expect(toStoreError(error)).toBe(error);
  });

  it('returns other errors unchanged', () => {
    const bug = new TypeError('x is not a function');
    expect(toStoreError(bug)).toBe(bug);
    expect(toStoreError(reply('ERR unknown command'))).toBeInstanceOf(ReplyError);
    expect(toStoreError('not an error')).toBe('not an error');
  });
});

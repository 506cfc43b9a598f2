import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Redis } from 'ioredis';
import type { RedisStore } from '@vp-authorizer/redis';
import { deleteKeys, testClient } from '@vp-authorizer/testing/redis';

/** What a Redis store test reads and replaces: the admin client, the current key prefix and store. */
export interface RedisStoreTests {
  readonly admin: Redis;
  prefix: string;
  store: RedisStore;
}

/**
 * Registers, in the calling describe block, the hooks every Redis store test repeats: one admin
 * client for the block (quit after all), and after each test the current store closed and every
 * key under the current prefix deleted.
 */
export function redisStoreTests(url: string): RedisStoreTests {
  let admin: Redis | undefined;
  const state = {
    get admin(): Redis {
      if (admin === undefined) throw new Error('redisStoreTests: the admin client exists from beforeAll on');
      return admin;
    },
    prefix: '',
    store: undefined as unknown as RedisStore,
  };
  beforeAll(() => {
    admin = testClient(url);
  });
  afterAll(async () => {
    await admin?.quit();
  });
  afterEach(async () => {
    await state.store?.close();
    if (state.prefix !== '') await deleteKeys(state.admin, state.prefix);
  });
  return state;
}

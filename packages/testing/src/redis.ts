// Helpers for tests against a real Redis (a throw-away redis-server on 127.0.0.1, see
// scripts/with-redis.mjs in the repository). Needs `ioredis`, an optional peer dependency.
export { deleteKeys, redisServerPath, redisUrlForTests, testClient, testPrefix } from './redis/redis-test-env.js';

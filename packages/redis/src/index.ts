export { redisStore, type RedisStore, type RedisStoreOptions } from './redis-store.js';
export { RecordFormatError } from './record-format-error.js';

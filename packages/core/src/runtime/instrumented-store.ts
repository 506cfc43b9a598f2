import type { Instrumentation } from '../events/instrumentation.js';
import type { AuthorizerStore } from '../model/authorizer-store.js';

type StoreOperation = 'create' | 'get' | 'getInAny' | 'compareAndSet' | 'listDueForExpiry' | 'put' | 'peek' | 'consume' | 'ping';

/**
 * The store with every call as a `store` step (`vp.store.operation`). Only built when
 * instrumentation is configured; the store's own object is left as it is.
 */
export function instrumentedStore(store: AuthorizerStore, instrumentation: Instrumentation): AuthorizerStore {
  const traced =
    <A extends unknown[], R>(operation: StoreOperation, call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      instrumentation.step('store', { 'vp.store.operation': operation }, () => call.apply(store, args));
  const { ping, getInAny } = store;
  return {
    create: traced('create', store.create),
    get: traced('get', store.get),
    compareAndSet: traced('compareAndSet', store.compareAndSet),
    listDueForExpiry: traced('listDueForExpiry', store.listDueForExpiry),
    put: traced('put', store.put),
    peek: traced('peek', store.peek),
    consume: traced('consume', store.consume),
    ...(getInAny ? { getInAny: traced('getInAny', getInAny) } : {}),
    ...(ping ? { ping: traced('ping', ping) } : {}),
  };
}

import { TEST_API_KEY, testSigningKey } from '@vp-authorizer/testing';
import { deleteKeys, testClient, testPrefix } from '@vp-authorizer/testing/redis';
import { bundleWorker, startWorkers } from '../../__fixtures__/worker-processes.js';
import type { ServerConfig } from '../authorizer-server-worker.js';

/** Where both processes sit "behind a load balancer"; tests reach each one by swapping the origin. */
export const PUBLIC_ORIGIN = 'https://verifier.example';

export interface ServerProcess {
  /** http://127.0.0.1:<port> of this process. */
  origin: string;
}

export interface TwoServers {
  servers: ServerProcess[];
  /** A direct Redis connection, to look at what the servers stored. */
  admin: ReturnType<typeof testClient>;
  /** The key prefix both servers write under. */
  keyPrefix: string;
  /** Stop both processes, delete the test's keys, close the admin connection. */
  close(): Promise<void>;
}

/**
 * Two authorizer server processes sharing one Redis (and one signing key), each mounted at
 * `/authz`, with `overrides` applied to both configurations.
 */
export async function startTwoServersOnRedis(url: string, overrides: Partial<ServerConfig> = {}): Promise<TwoServers> {
  const worker = await bundleWorker('test/store/authorizer-server-worker.ts');
  const admin = testClient(url);
  const keyPrefix = testPrefix();
  const { signing } = await testSigningKey();
  const config: ServerConfig = {
    redisUrl: url,
    keyPrefix,
    publicBaseUrl: `${PUBLIC_ORIGIN}/authz`,
    apiKey: TEST_API_KEY,
    signing,
    redirectUri: 'https://rp.example/callback',
    ...overrides,
  };
  const processes = await startWorkers<ServerConfig, { origin: string }>(worker.file, [config, config]);
  return {
    servers: processes.map((process) => ({ origin: process.ready.origin })),
    admin,
    keyPrefix,
    async close() {
      await Promise.all(processes.map((process) => process.stop()));
      await deleteKeys(admin, keyPrefix);
      await admin.quit();
      await worker.dispose();
    },
  };
}

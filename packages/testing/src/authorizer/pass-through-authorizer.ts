import { createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier, type Authorizer, type AuthorizerOptions, type InstanceOptions } from '@vp-authorizer/core';
import { generateDevSigningKey, type DevSigningKey } from '@vp-authorizer/keys';
import { fetchHandlerTarget } from '../http-contract/fetch-handler-target.js';

/** The API key of instance `main` of a pass-through authorizer. */
export const TEST_API_KEY = 'test-api-key-main-0001';
/** The API key of instance `other` (records of `main` are not found with it). */
export const TEST_OTHER_API_KEY = 'test-api-key-other-0001';
/** Where {@link startPassThroughAuthorizer} mounts the authorizer. */
export const TEST_MOUNT_PATH = '/authz';

let signing: Promise<DevSigningKey> | undefined;
/** A development signing chain made once per process and shared by the test authorizers. */
export function testSigningKey(): Promise<DevSigningKey> {
  return (signing ??= generateDevSigningKey());
}

export type PassThroughAuthorizerOptions = Partial<AuthorizerOptions> & {
  /** Merged over instance `main`. */
  instance?: Partial<InstanceOptions>;
};

/**
 * An authorizer for tests of the HTTP flow (never for production: its clients accept every
 * presentation): instance `main` ({@link TEST_API_KEY}, redirect URI `https://rp.example/callback`,
 * DC API origin `https://rp.example`) and instance `other` ({@link TEST_OTHER_API_KEY}), both with
 * the pass-through validator and verifier and a development signing chain; a memory store and no
 * sweep timer. `options` replace any of that.
 */
export async function createPassThroughAuthorizer(options: PassThroughAuthorizerOptions & { publicBaseUrl: string }): Promise<Authorizer> {
  const { signing } = await testSigningKey();
  const { instance, ...rest } = options;
  return createAuthorizer({
    store: memoryStore({ sweepIntervalMs: 0, ...(rest.clock ? { clock: rest.clock } : {}) }),
    sweepIntervalMs: 0,
    instances: [
      {
        id: 'main',
        apiKeys: [TEST_API_KEY],
        signing,
        validator: passThroughValidator(),
        verifier: passThroughVerifier(),
        config: { openId4vp: { redirectUri: 'https://rp.example/callback', dcApi: { allowedOrigins: ['https://rp.example'] } } },
        ...instance,
      },
      { id: 'other', apiKeys: [TEST_OTHER_API_KEY], signing, validator: passThroughValidator(), verifier: passThroughVerifier() },
    ],
    ...rest,
  });
}

/** A pass-through authorizer served over real HTTP. */
export interface PassThroughAuthorizerServer {
  authorizer: Authorizer;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** `origin` + {@link TEST_MOUNT_PATH}: the public base URL. */
  base: string;
  /** `fetch(base + path)` with `Authorization: Bearer <key>` (default {@link TEST_API_KEY}; `null` sends none). */
  api(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * {@link createPassThroughAuthorizer} behind `authorizer.fetch` on a node:http server on 127.0.0.1
 * (a random port), mounted at {@link TEST_MOUNT_PATH}.
 */
export async function startPassThroughAuthorizer(options: PassThroughAuthorizerOptions = {}): Promise<PassThroughAuthorizerServer> {
  const mounted = await fetchHandlerTarget().start({ prefix: TEST_MOUNT_PATH });
  const base = `${mounted.origin}${TEST_MOUNT_PATH}`;
  let authorizer: Authorizer;
  try {
    authorizer = await createPassThroughAuthorizer({ publicBaseUrl: base, basePath: TEST_MOUNT_PATH, ...options });
  } catch (error) {
    await mounted.close();
    throw error;
  }
  mounted.attach(authorizer);
  return {
    authorizer,
    origin: mounted.origin,
    base,
    api(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null) headers.set('authorization', `Bearer ${key ?? TEST_API_KEY}`);
      return fetch(`${base}${path}`, { ...rest, headers });
    },
    async close() {
      await authorizer.close();
      await mounted.close();
    },
  };
}

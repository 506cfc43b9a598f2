import { createHash, type KeyObject } from 'node:crypto';
import type { RequestSigner } from '@vp-authorizer/core';
import type * as Pkcs11js from 'pkcs11js';
import { acquireModule, codeName, pkcs11js, releaseModule } from './pkcs11-module.js';
import { createSessionPool } from './session-pool.js';
import { P256_EC_PARAMS, publicKeyFromEcPoint } from './ec-point.js';
import { findToken, type TokenSelector } from './find-token.js';
import { Pkcs11SignerError } from './pkcs11-signer-error.js';

export interface Pkcs11SignerOptions {
  /** Path of the PKCS#11 library (for SoftHSM2 on Debian: /usr/lib/softhsm/libsofthsm2.so). */
  module: string;
  /** The token holding the key: by its label (CKA_LABEL of the token, as `softhsm2-util --show-slots` lists it) or serial number. */
  token: TokenSelector;
  /**
   * The user PIN. Kept in this object's closure for logins after the token comes back; never in a
   * message. PKCS#11 logs an application in once per token: a second signer on a token this process
   * is already logged in to shares that login (its own PIN is not checked).
   */
  pin: string;
  /** The private key: by CKA_LABEL, CKA_ID (hex), or both. Exactly one P-256 key must match. */
  key: { label?: string; id?: string };
  /**
   * The key's certificate chain, PEM or base64 DER, leaf first, without the trust anchor. Left out
   * only before the key has a certificate (to sign its certificate signing request): the
   * authorizer refuses a signer without a chain.
   */
  certificateChain?: readonly string[];
  /**
   * Sessions kept open and reused, one per signature in flight: each signature in flight holds one
   * of Node's worker threads (libuv's pool, `UV_THREADPOOL_SIZE`, 4 by default), which file system,
   * DNS and crypto work share. Default: half the pool (2); at most the pool less one, so that a
   * token that hangs can never hold every thread. Raise `UV_THREADPOOL_SIZE` (before Node starts)
   * for more.
   */
  sessions?: number;
  /** Signatures that may wait for a session; beyond it a signature is refused at once (default 1024). */
  maxQueue?: number;
  /**
   * Longest wait for the token's answer to one C_Sign, in ms (default 5000, at most 60000). Past
   * it the signature fails, and its session (and thread) stays taken until the token answers;
   * while every session waits so, signatures are refused at once instead of queueing.
   */
  timeoutMs?: number;
}

/** A RequestSigner on a PKCS#11 token, with the key's public half and a clean close. */
export interface Pkcs11Signer extends RequestSigner {
  /** The token's public key of the signing key (to issue or check its certificate). */
  readonly publicKey: KeyObject;
  /** Sessions open on the token now. */
  readonly sessionsOpen: number;
  /** Wait for the signatures in flight, close the sessions, log out, unload the library when nobody else uses it. Idempotent. */
  close(): Promise<void>;
}

/**
 * Codes after which the token (or our view of it) is gone: the sessions and the key handle are
 * dropped, and the next signature finds the token, logs in and looks the key up again.
 */
const TOKEN_GONE = new Set([
  'CKR_DEVICE_REMOVED',
  'CKR_DEVICE_ERROR',
  'CKR_TOKEN_NOT_PRESENT',
  'CKR_TOKEN_NOT_RECOGNIZED',
  'CKR_SESSION_HANDLE_INVALID',
  'CKR_SESSION_CLOSED',
  'CKR_USER_NOT_LOGGED_IN',
  'CKR_OBJECT_HANDLE_INVALID',
  'CKR_KEY_HANDLE_INVALID',
  'CKR_SLOT_ID_INVALID',
  'CKR_GENERAL_ERROR',
]);

interface Connection {
  slot: Pkcs11js.Handle;
  key: Pkcs11js.Handle;
}

/**
 * Open a signer on a PKCS#11 token: load the library, find the token and the key, check that the
 * key is a P-256 signing key. Signing runs off the event loop (C_Sign in the library's worker
 * thread) on sessions kept open and reused; a token that goes away fails the signatures in flight
 * (the authorizer answers 503) and is looked up again on the next one.
 */
export async function openPkcs11Signer(options: Pkcs11SignerOptions): Promise<Pkcs11Signer> {
  const threads = threadPoolSize();
  const size = options.sessions ?? Math.max(1, Math.floor(threads / 2));
  const maxQueue = options.maxQueue ?? 1024;
  const timeoutMs = options.timeoutMs ?? 5_000;
  if (threads < 2) throw new TypeError(`openPkcs11Signer: Node's thread pool has ${threads} thread (UV_THREADPOOL_SIZE): a token call would take all of it; start Node with UV_THREADPOOL_SIZE=4 or more`);
  if (!Number.isInteger(size) || size < 1 || size >= threads) {
    throw new TypeError(`openPkcs11Signer: sessions must be a whole number from 1 to ${threads - 1}, fewer than Node's ${threads} worker threads (UV_THREADPOOL_SIZE), which file system, DNS and crypto work share; for more sessions start Node with a larger UV_THREADPOOL_SIZE`);
  }
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) throw new TypeError('openPkcs11Signer: timeoutMs must be a whole number of milliseconds from 1 to 60000');
  if (!Number.isInteger(maxQueue) || maxQueue < 0) throw new TypeError('openPkcs11Signer: maxQueue must be a whole number, 0 or more');
  if (typeof options.pin !== 'string' || options.pin === '') throw new TypeError('openPkcs11Signer: pin is required (the token\'s user PIN)');
  if (options.key.label === undefined && options.key.id === undefined) throw new TypeError('openPkcs11Signer: key needs a label or an id');
  if (options.certificateChain !== undefined && !Array.isArray(options.certificateChain)) throw new TypeError('openPkcs11Signer: certificateChain must list the key\'s certificates (leaf first)');
  const lib = pkcs11js();
  const pin = options.pin;
  let module: Pkcs11js.PKCS11;
  try {
    module = acquireModule(options.module);
  } catch (error) {
    throw new Pkcs11SignerError(`could not load the PKCS#11 library ${options.module}`, error);
  }

  let connection: Connection | undefined;
  const pool = createSessionPool<Pkcs11js.Handle>({
    size,
    maxQueue,
    openSession: () => {
      if (!connection) throw new Pkcs11SignerError('the token is not connected');
      const session = module.C_OpenSession(connection.slot, lib.CKF_SERIAL_SESSION);
      login(session);
      return session;
    },
    closeSession: (session) => module.C_CloseSession(session),
  });

  /** Login is per application and token: the first session logs in, later ones find it done. */
  const login = (session: Pkcs11js.Handle) => {
    try {
      module.C_Login(session, lib.CKU_USER, pin);
    } catch (error) {
      if (codeName(error) === 'CKR_USER_ALREADY_LOGGED_IN') return;
      try {
        module.C_CloseSession(session);
      } catch {
        // The session is useless either way.
      }
      throw new Pkcs11SignerError('C_Login failed', error);
    }
  };

  const findOne = (session: Pkcs11js.Handle, template: Pkcs11js.Template): Pkcs11js.Handle[] => {
    module.C_FindObjectsInit(session, template);
    try {
      return module.C_FindObjects(session, 2);
    } finally {
      module.C_FindObjectsFinal(session);
    }
  };
  const keyTemplate = (cls: number): Pkcs11js.Template => [
    { type: lib.CKA_CLASS, value: cls },
    ...(options.key.label !== undefined ? [{ type: lib.CKA_LABEL, value: options.key.label }] : []),
    ...(options.key.id !== undefined ? [{ type: lib.CKA_ID, value: Buffer.from(options.key.id, 'hex') }] : []),
  ];
  const keyName = [options.key.label !== undefined ? `label "${options.key.label}"` : '', options.key.id !== undefined ? `id ${options.key.id}` : ''].filter(Boolean).join(' and ');

  /**
   * Find the token and the key (again, after the token went away); returns the key's public key.
   * The lookup session goes back to the pool: while one session stays open the login holds.
   */
  const lookUp = async (): Promise<KeyObject> => {
    let slot: Pkcs11js.Handle;
    try {
      slot = findToken(module, options.token);
    } catch (error) {
      throw error instanceof Pkcs11SignerError ? error : new Pkcs11SignerError('C_GetSlotList failed', error);
    }
    pool.reset();
    connection = { slot, key: Buffer.alloc(0) };
    let session: Pkcs11js.Handle;
    try {
      session = await pool.acquire();
    } catch (error) {
      connection = undefined;
      throw error instanceof Pkcs11SignerError ? error : new Pkcs11SignerError('C_OpenSession failed', error);
    }
    try {
      const keys = findOne(session, keyTemplate(lib.CKO_PRIVATE_KEY));
      if (keys.length !== 1) throw new Pkcs11SignerError(keys.length === 0 ? `no private key with ${keyName} on the token` : `more than one private key with ${keyName} on the token: give both label and id`);
      const attrs = module.C_GetAttributeValue(session, keys[0]!, [{ type: lib.CKA_KEY_TYPE }, { type: lib.CKA_EC_PARAMS }, { type: lib.CKA_SIGN }]);
      const keyType = attrs[0]!.value as Buffer;
      if (keyType.readUIntLE(0, Math.min(keyType.length, 6)) !== lib.CKK_EC || !(attrs[1]!.value as Buffer).equals(P256_EC_PARAMS)) throw new Pkcs11SignerError(`the key with ${keyName} is not an EC P-256 key (ES256)`);
      if ((attrs[2]!.value as Buffer)[0] !== 1) throw new Pkcs11SignerError(`the key with ${keyName} may not sign (CKA_SIGN is false)`);
      const publics = findOne(session, keyTemplate(lib.CKO_PUBLIC_KEY));
      if (publics.length !== 1) throw new Pkcs11SignerError(`no single public key with ${keyName} on the token (its EC point gives the public key)`);
      const point = module.C_GetAttributeValue(session, publics[0]!, [{ type: lib.CKA_EC_POINT }])[0]!.value as Buffer;
      connection = { slot, key: keys[0]! };
      pool.release(session);
      return publicKeyFromEcPoint(point);
    } catch (error) {
      connection = undefined;
      pool.discard(session);
      throw error instanceof Pkcs11SignerError ? error : new Pkcs11SignerError('looking up the key failed', error);
    }
  };
  /** One lookup at a time: signatures arriving while the token is looked up wait for it. */
  let connecting: Promise<KeyObject> | undefined;
  const connect = () =>
    (connecting ??= lookUp().finally(() => {
      connecting = undefined;
    }));

  let publicKey: KeyObject;
  try {
    publicKey = await connect();
  } catch (error) {
    await pool.drain();
    releaseModule(options.module);
    throw error;
  }

  let closing: Promise<void> | undefined;
  const tokenGone = () => {
    connection = undefined;
    pool.reset();
  };

  return {
    alg: 'ES256',
    certificateChain: Object.freeze([...(options.certificateChain ?? [])]),
    publicKey,
    get sessionsOpen() {
      return pool.open;
    },
    async sign(data) {
      if (closing) throw new Pkcs11SignerError('the PKCS#11 signer is closed');
      // No session open (the last ones failed or hung and were closed): the token logged us out,
      // and the key's handle went with the login. Log in and find the key again.
      if (!connection || pool.open === 0) await connect();
      const key = connection!.key;
      const session = await pool.acquire();
      let signature: Buffer;
      try {
        module.C_SignInit(session, { mechanism: lib.CKM_ECDSA }, key);
        // CKM_ECDSA signs a hash the caller computed and answers r || s, each as long as the order (32 bytes for P-256).
        signature = await answerWithin(module.C_SignAsync(session, createHash('sha256').update(data).digest(), Buffer.alloc(64)), timeoutMs, () => {
          // The worker thread stays in C_Sign until the token answers: the session with it.
          pool.hung(session);
          return () => pool.discard(session);
        });
      } catch (error) {
        if (error instanceof Pkcs11SignerError) throw error;
        pool.discard(session);
        if (TOKEN_GONE.has(codeName(error) ?? '')) tokenGone();
        throw new Pkcs11SignerError('C_Sign failed', error);
      }
      pool.release(session);
      return new Uint8Array(signature.buffer, signature.byteOffset, signature.byteLength);
    },
    close() {
      closing ??= (async () => {
        await pool.drain();
        // A call the token never answered still runs inside the library: unloading it would pull
        // the code from under that thread. It is unloaded when the last such call returns.
        if (pool.open === 0) releaseModule(options.module);
        else void pool.whenEmpty().then(() => releaseModule(options.module));
      })();
      return closing;
    },
  };
}

/** libuv's thread pool size, which Node reads from UV_THREADPOOL_SIZE when it first uses the pool (default 4, at most 1024). */
function threadPoolSize(): number {
  const configured = Number(process.env.UV_THREADPOOL_SIZE);
  return Number.isInteger(configured) && configured > 0 ? Math.min(configured, 1024) : 4;
}

/**
 * The token's answer, or a Pkcs11SignerError after `timeoutMs`. Then `onHung` runs, and what it
 * returns runs once the call settles after all (its result is dropped).
 */
function answerWithin<T>(call: Promise<T>, timeoutMs: number, onHung: () => () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const settled = onHung();
      void call.then(settled, settled);
      reject(new Pkcs11SignerError(`the token did not answer C_Sign within ${timeoutMs} ms`));
    }, timeoutMs);
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

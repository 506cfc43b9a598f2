import type { DidMethodsConfig } from '@vp-authorizer/core';
import type { ResolvedLocalVerifierOptions } from './local-verifier-options.js';
import type { StatusListClient } from '../status-list/status-list-client.js';
import type { W3cStatusLists } from './ldp/w3c-status-lists.js';

/** Everything one verify call needs, fixed at the start of the call (one `now` for all checks). */
export interface VerifierContext {
  options: ResolvedLocalVerifierOptions;
  /** Epoch milliseconds, read once per call. */
  now: number;
  haip: boolean;
  /** Options' allowedAlgs, narrowed to ES256 under HAIP. */
  allowedAlgs: readonly string[];
  signal: AbortSignal;
  statusLists: StatusListClient;
  /** Bitstring Status List and StatusList2021 credentials, cached per verifier. */
  w3cStatusLists: W3cStatusLists;
  didMethods: DidMethodsConfig;
  /** The request nonce and the expected audience (full client_id or `origin:<origin>`). */
  nonce: string;
  audience: string;
}

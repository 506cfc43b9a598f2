import { type KeyObject, randomInt, X509Certificate } from 'node:crypto';
import type { PolicyCode } from '@vp-authorizer/core';
import { AnchorIndex, type AnchorMiss, type ChainTop } from './anchor-index.js';
import { fetchSource } from './fetch-source.js';
import { keyIdentifiers } from './key-identifiers.js';
import type { ListedCertificate } from './listed-certificate.js';
import { TrustListError, type TrustListErrorCode } from './trust-list-error.js';
import { resolveTrustListsOptions, type ResolvedSource, type ResolvedTrustListsOptions, type TrustListsOptions } from './trust-lists-options.js';
import { detectKind, TRUST_SOURCE_KINDS, type TrustSourceKindName } from './trust-source-kinds.js';
import type { TrustedListContent } from './trusted-list-content.js';

/** What a relying party's verifier asks: may this chain's top be vouched for, for this purpose? */
export interface IssuerAnchorQuery {
  purpose: 'credential' | 'status_list';
  /** SD-JWT VC `vct`, mdoc docType or W3C VC `type` values; empty when the credential names none. */
  credentialTypes: readonly string[];
  /** DER of the last certificate of the presented chain. */
  top: Uint8Array;
  /** The credential's own issuance time (epoch ms), when it states one (`judgeBy: 'issuance'` reads statuses then). */
  issuedAt?: number;
}

/** The anchors (PEM) to validate the chain against; when there are none, why, with a stable code. */
export interface IssuerAnchorAnswer {
  anchors: readonly string[];
  refusal?: { code: Extract<PolicyCode, 'trusted_issuer.untrusted' | 'trusted_issuer.withdrawn' | 'trusted_issuer.list_stale'>; detail: string };
}

/** A credential issued under a DID (no certificate chain): is that DID listed for its types? */
export interface IssuerDidQuery {
  did: string;
  /** SD-JWT VC `vct` or W3C VC `type` values; empty when the credential names none. */
  credentialTypes: readonly string[];
}

/** Whether a granted service of a fresh list names the DID; if not, why, with a stable code. */
export interface IssuerDidAnswer {
  listed: boolean;
  refusal?: IssuerAnchorAnswer['refusal'];
}

/** One source as `status()` reports it. */
export interface TrustSourceStatus {
  source: string;
  kind?: TrustSourceKindName;
  /** The LoTL this list was found through. */
  via?: string;
  territory?: string;
  state: 'loading' | 'ready' | 'stale' | 'failed';
  sequence?: number;
  /** Epoch ms. */
  loadedAt?: number;
  nextUpdate?: number;
  /** Epoch ms past which the list's anchors are no longer used (NextUpdate plus grace), while no fresher list loads. */
  staleAt?: number;
  /** Epoch ms of the next scheduled load (a refresh at NextUpdate, or a retry after a failure); none once closed. */
  nextRefreshAt?: number;
  anchors: number;
  /** The last failure (the last good list stays in use while it is not stale). */
  error?: { code: TrustListErrorCode; message: string };
}

interface SourceState {
  location: string;
  kind?: TrustSourceKindName;
  via?: string;
  territory?: string;
  /** Signers for this list: configured ones, or those the LoTL pointer names. */
  signers: readonly ListedCertificate[];
  content?: TrustedListContent;
  loadedAt?: number;
  error?: TrustListError;
  attempted: boolean;
  failures: number;
  timer?: NodeJS.Timeout;
  /** When `timer` fires, epoch ms. */
  nextRefreshAt?: number;
  loading?: Promise<void>;
}

/**
 * Issuer trust anchors from signed trusted lists, for `localVerifier({ issuerAnchors })` and
 * `localValidator({ issuerAnchors })`. Construction validates the options and does no I/O; the
 * first query (or `start()`) begins loading in the background, and `ready()` waits for one
 * attempt at every source when startup should block on it.
 */
export class TrustLists {
  private readonly options: ResolvedTrustListsOptions;
  private readonly states = new Map<string, SourceState>();
  private readonly configured: SourceState[];
  private index = new AnchorIndex([]);
  private started?: Promise<void>;
  private closed = false;

  constructor(options: TrustListsOptions) {
    this.options = resolveTrustListsOptions(options);
    this.configured = this.options.sources.map((source) => this.stateFor(source, this.options.signers));
  }

  /** Begins loading every source (idempotent); resolves when each had one attempt. Never rejects. */
  start(): Promise<void> {
    this.started ??= Promise.all(this.configured.map((state) => this.load(state))).then(() => undefined);
    return this.started;
  }

  /** Starts if needed and waits for one attempt at every source (and every list a LoTL points to). */
  ready(): Promise<void> {
    return this.start();
  }

  /** Ready for traffic: every configured source loaded and none past NextUpdate plus grace. */
  isReady(): boolean {
    return this.configured.every((state) => this.stateOf(state) === 'ready');
  }

  /**
   * A readiness check for core's `readiness` option: not ready while a list is past NextUpdate plus
   * grace, failed or still loading, naming each such list (its location without credentials or query).
   */
  readiness(): { name: string; check(): Promise<{ ready: boolean; detail?: string }> } {
    return {
      name: 'trust-lists',
      check: async () => {
        const notReady = this.status().filter((s) => s.state !== 'ready');
        if (notReady.length === 0) return { ready: true };
        return { ready: false, detail: notReady.map((s) => `${publicLocation(s.source)} is ${s.state === 'stale' ? 'stale (past NextUpdate plus grace)' : s.state === 'failed' ? 'not loaded (its load failed)' : 'not loaded yet'}`).join(', ') };
      },
    };
  }

  status(): TrustSourceStatus[] {
    return [...this.states.values()].map((state) => ({
      source: state.location,
      ...(state.kind ? { kind: state.kind } : {}),
      ...(state.via ? { via: state.via } : {}),
      ...((state.content?.territory ?? state.territory) ? { territory: state.content?.territory ?? state.territory } : {}),
      state: this.stateOf(state),
      ...(state.content?.sequence !== undefined ? { sequence: state.content.sequence } : {}),
      ...(state.loadedAt !== undefined ? { loadedAt: state.loadedAt } : {}),
      ...(state.content?.nextUpdate !== undefined ? { nextUpdate: state.content.nextUpdate } : {}),
      ...(state.content && Number.isFinite(this.staleAt(state.content)) ? { staleAt: this.staleAt(state.content) } : {}),
      ...(state.nextRefreshAt !== undefined ? { nextRefreshAt: state.nextRefreshAt } : {}),
      anchors: state.content?.services.reduce((n, s) => n + s.certificates.length, 0) ?? 0,
      ...(state.error ? { error: { code: state.error.code, message: state.error.message } } : {}),
    }));
  }

  /** Stops every background refresh. Queries keep answering from what is loaded. */
  close(): void {
    this.closed = true;
    for (const state of this.states.values()) {
      clearTimeout(state.timer);
      state.nextRefreshAt = undefined;
    }
  }

  /** The anchors that may vouch for the chain's top: an index lookup by key identifier (or name), then service type, status and freshness. */
  async issuerAnchors(query: IssuerAnchorQuery): Promise<IssuerAnchorAnswer> {
    void this.start();
    const top = chainTop(query.top)?.top;
    if (!top) return { anchors: [], refusal: { code: 'trusted_issuer.untrusted', detail: 'the top certificate of the chain cannot be parsed' } };
    const now = this.options.clock.now();
    const at = this.options.judgeBy === 'issuance' && query.issuedAt !== undefined && query.issuedAt <= now ? query.issuedAt : now;
    const serviceTypes = new Set(this.options.vouching({ purpose: query.purpose, credentialTypes: query.credentialTypes }));
    const { anchors, misses } = this.index.find(top, serviceTypes, at);
    const { kept, refusal } = this.verdict(anchors, misses, serviceTypes);
    if (refusal) return { anchors: [], refusal };
    if (kept.length > MAX_ANCHORS_PER_CHAIN) {
      const sources = [...new Set(kept.map((a) => publicLocation(a.source)))].join(', ');
      return { anchors: [], refusal: { code: 'trusted_issuer.untrusted', detail: `${kept.length} listed certificates share the key identifier or name the chain's top states (at most ${MAX_ANCHORS_PER_CHAIN} are tried), in ${sources}` } };
    }
    return { anchors: kept.map((a) => a.certificate.pem) };
  }

  /**
   * A credential issued under a DID: listed when a service of a type that may vouch for its types
   * names exactly that DID in its digital identity (TS 119 602 `OtherIds`), with a trusted status
   * now, in a list that is not stale. Withdrawn, stale and other-type entries are refused as for
   * certificate anchors.
   */
  async issuerDid(query: IssuerDidQuery): Promise<IssuerDidAnswer> {
    void this.start();
    const serviceTypes = new Set(this.options.vouching({ purpose: 'credential', credentialTypes: query.credentialTypes }));
    const { entries, misses } = this.index.findDid(query.did, serviceTypes, this.options.clock.now());
    const { refusal } = this.verdict(entries, misses, serviceTypes);
    return refusal ? { listed: false, refusal } : { listed: true };
  }

  /** Keeps what fresh lists vouch with; when nothing is left, the refusal that says why (stale, withdrawn, other type, not listed). */
  private verdict<T extends { source: string }>(found: T[], misses: readonly AnchorMiss[], serviceTypes: ReadonlySet<string>): { kept: T[]; refusal?: IssuerAnchorAnswer['refusal'] } {
    const kept = found.filter((a) => this.stateOf(this.states.get(a.source)!) !== 'stale');
    if (kept.length > 0) return { kept };
    if (found.length > 0) {
      return { kept, refusal: { code: 'trusted_issuer.list_stale', detail: `the lists vouching for this issuer are past NextUpdate plus grace: ${[...new Set(found.map((a) => a.source))].join(', ')}` } };
    }
    const withdrawn = misses.find((m) => serviceTypes.has(m.serviceType));
    if (withdrawn) return { kept, refusal: { code: 'trusted_issuer.withdrawn', detail: `the issuer's service is listed in ${withdrawn.source} with status ${withdrawn.status ?? '(none yet)'} at the time judged` } };
    if (!this.configured.some((s) => s.content)) return { kept, refusal: { code: 'trusted_issuer.untrusted', detail: 'no trusted list has loaded yet' } };
    const other = misses[0];
    return {
      kept,
      refusal: {
        code: 'trusted_issuer.untrusted',
        detail: other ? `the issuer is listed in ${other.source} only for service type ${other.serviceType}, which may not vouch for this credential` : 'no loaded trusted list names the issuer',
      },
    };
  }

  /** DCQL `trusted_authorities` type `etsi_tl`: whether a granted service of one of the named lists (by location) lists the chain's top or its issuer. */
  inTrustedList(query: { top: Uint8Array; lists: readonly string[] }): boolean {
    const parsed = chainTop(query.top);
    if (!parsed) return false;
    const lists = new Set(query.lists.filter((l) => this.states.has(l) && this.stateOf(this.states.get(l)!) !== 'stale'));
    // At most as many signatures checked as anchors a chain is tried against.
    let checked = 0;
    return lists.size > 0 && this.index.listedBy(parsed.top, lists, this.options.clock.now(), (listed) => ++checked <= MAX_ANCHORS_PER_CHAIN && isOrIssued(parsed.certificate, listed));
  }

  private stateFor(source: ResolvedSource, signers: readonly ListedCertificate[], via?: string, territory?: string): SourceState {
    const existing = this.states.get(source.location);
    if (existing) {
      existing.signers = signers;
      return existing;
    }
    const state: SourceState = { location: source.location, ...(source.kind ? { kind: source.kind } : {}), ...(via ? { via } : {}), ...(territory ? { territory } : {}), signers, attempted: false, failures: 0 };
    this.states.set(source.location, state);
    return state;
  }

  private stateOf(state: SourceState): TrustSourceStatus['state'] {
    if (!state.content) return state.attempted ? 'failed' : 'loading';
    if (this.options.clock.now() > this.staleAt(state.content)) return 'stale';
    // A list found through a LoTL is trusted only while that LoTL, which names its signers, is fresh.
    const parent = state.via === undefined ? undefined : this.states.get(state.via);
    return parent && this.stateOf(parent) === 'stale' ? 'stale' : 'ready';
  }

  /** Past this instant (epoch ms) a list's anchors are not used. A TS 119 612 list without NextUpdate is closed: stale at once. */
  private staleAt(content: TrustedListContent): number {
    if (content.nextUpdate !== undefined) return content.nextUpdate + this.options.graceMs;
    return content.kind === 'etsi-tl' ? Number.NEGATIVE_INFINITY : content.issuedAt + this.options.maxAgeWithoutNextUpdateMs;
  }

  /** One load at a time per source; a failure keeps the last good content. */
  private load(state: SourceState): Promise<void> {
    state.loading ??= this.loadOnce(state).finally(() => {
      state.loading = undefined;
    });
    return state.loading;
  }

  private async loadOnce(state: SourceState): Promise<void> {
    const started = this.options.clock.now();
    const where = state.location;
    try {
      const accept = state.kind ? TRUST_SOURCE_KINDS[state.kind].accept : 'application/vnd.etsi.tsl+xml, application/jose, application/cbor, */*;q=0.5';
      const bytes = await fetchSource(state.location, accept, this.options.fetch, this.options.policy, where);
      const kind = state.kind ?? detectKind(bytes);
      const content = await TRUST_SOURCE_KINDS[kind].read(bytes, {
        signers: state.signers,
        now: this.options.clock.now(),
        maxBytes: this.options.fetch.maxBytes,
        xmlBounds: this.options.xmlBounds,
        where,
      });
      // A replayed older list must not replace a newer one.
      if (state.content?.sequence !== undefined && content.sequence !== undefined && content.sequence < state.content.sequence) {
        throw new TrustListError('malformed', `${where}: sequence ${content.sequence} is older than the loaded ${state.content.sequence}`);
      }
      if (this.options.clock.now() > this.staleAt(content)) throw new TrustListError('stale', `${where}: the list is past its NextUpdate plus grace`);
      state.kind = kind;
      state.content = content;
      state.loadedAt = this.options.clock.now();
      state.error = undefined;
      state.failures = 0;
      this.rebuildIndex();
      this.options.onEvent({
        type: 'loaded',
        source: where,
        kind,
        ...(content.sequence !== undefined ? { sequence: content.sequence } : {}),
        ...(content.nextUpdate !== undefined ? { nextUpdate: content.nextUpdate } : {}),
        anchors: content.services.reduce((n, s) => n + s.certificates.length, 0),
        durationMs: this.options.clock.now() - started,
      });
      if (kind === 'lotl') await this.followPointers(state, content);
      this.schedule(state, content.nextUpdate);
    } catch (error) {
      const failure = error instanceof TrustListError ? error : new TrustListError('malformed', `${where}: the list cannot be read`, { cause: error });
      state.error = failure;
      state.failures++;
      this.options.onEvent({ type: 'load_failed', source: where, ...(state.kind ? { kind: state.kind } : {}), code: failure.code, message: failure.message, keptLastGood: state.content !== undefined });
      if (state.content && this.stateOf(state) === 'stale') this.options.onEvent({ type: 'stale', source: where, ...(state.content.nextUpdate !== undefined ? { nextUpdate: state.content.nextUpdate } : {}) });
      const { retryMs, maxIntervalMs } = this.options.refresh;
      this.schedule(state, this.options.clock.now() + Math.min(maxIntervalMs, retryMs * 2 ** Math.min(state.failures - 1, 16)), true);
    } finally {
      state.attempted = true;
    }
  }

  /** Loads every XML list the LoTL points to, each checked against the certificates its pointer names; failures stay per list. */
  private async followPointers(lotl: SourceState, content: TrustedListContent): Promise<void> {
    const pointers = content.pointers
      .filter((p) => p.listType !== content.listType && p.location !== lotl.location)
      .filter((p) => p.mimeType === undefined || /xml/i.test(p.mimeType))
      .filter((p) => !this.options.territories || (p.territory !== undefined && this.options.territories.has(p.territory)))
      .slice(0, this.options.maxPointers);
    const children = pointers.map((p) => this.stateFor({ location: p.location, kind: 'tl' }, p.signers, lotl.location, p.territory));
    // A list the new LoTL no longer points to is no longer trusted.
    const current = new Set(children);
    for (const state of [...this.states.values()]) {
      if (state.via === lotl.location && !current.has(state)) {
        clearTimeout(state.timer);
        this.states.delete(state.location);
      }
    }
    this.rebuildIndex();
    // A few at a time: bounded concurrency, each fetch bounded in size and time.
    const queue = [...children];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await this.load(next);
    };
    await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
  }

  private rebuildIndex(): void {
    this.index = new AnchorIndex([...this.states.values()].filter((s) => s.content).map((s) => ({ source: s.location, content: s.content! })));
  }

  /** The next load: at `when` (NextUpdate, or a retry), clamped to the refresh bounds, with up to 10% jitter; never keeps the process alive. */
  private schedule(state: SourceState, when: number | undefined, retry = false): void {
    if (this.closed) return;
    clearTimeout(state.timer);
    const { minIntervalMs, maxIntervalMs } = this.options.refresh;
    const now = this.options.clock.now();
    const wanted = when === undefined ? maxIntervalMs : when - now;
    const delay = retry ? Math.max(1, Math.min(maxIntervalMs, wanted)) : Math.min(maxIntervalMs, Math.max(minIntervalMs, wanted));
    const jittered = Math.min(delay + randomInt(0, Math.max(1, Math.floor(delay / 10))), 2 ** 31 - 1);
    state.nextRefreshAt = now + jittered;
    state.timer = setTimeout(() => void this.load(state), jittered);
    state.timer.unref();
  }
}

/** What the index looks the top of a chain up by (its key identifiers and names), and the parsed top; undefined when it does not parse. */
function chainTop(der: Uint8Array): { top: ChainTop; certificate: X509Certificate } | undefined {
  let top: X509Certificate;
  try {
    top = new X509Certificate(Buffer.from(der));
  } catch {
    return undefined;
  }
  const { authorityKeyId, subjectKeyId } = keyIdentifiers(der);
  // Every field present, in one order: an object spread here made each decision's reads of it
  // about twice as slow (measured in bench/trust-list-load.mjs).
  return { top: { authorityKeyId, subjectKeyId, names: [top.issuer, top.subject] }, certificate: top };
}

/**
 * Path validation parses every anchor it is given (about half a millisecond each), so the anchors
 * one chain may be tried against are bounded: a list that carries thousands of certificates under
 * one key identifier or name would otherwise stall every decision naming it. Real lists share a key
 * identifier between a few reissued certificates and a name between a few generations of one CA.
 */
const MAX_ANCHORS_PER_CHAIN = 64;

// Listed certificates are immutable and shared by every decision: read each one's key once.
const listedKeys = new WeakMap<ListedCertificate, KeyObject>();

/**
 * Whether `listed` is the top itself or its key signed the top. A listed certificate that merely
 * shares a name or key identifier with one the top states (another authority's namesake, or a
 * name the top gives itself) vouches for nothing: names and identifiers only find candidates.
 */
function isOrIssued(top: X509Certificate, listed: ListedCertificate): boolean {
  if (Buffer.compare(top.raw, listed.der) === 0) return true;
  try {
    let key = listedKeys.get(listed);
    if (!key) listedKeys.set(listed, (key = new X509Certificate(listed.der).publicKey));
    return top.verify(key);
  } catch {
    return false;
  }
}

/** A source as a public answer may name it: a URL without user info, query or fragment; a file by its name only. */
function publicLocation(location: string): string {
  try {
    const url = new URL(location.replace(/^[a-z]+:(?=[a-z]+:\/\/)/i, ''));
    if (url.protocol === 'https:' || url.protocol === 'http:') return `${url.origin}${url.pathname}`;
  } catch {
    // not a URL: a file path
  }
  return location.split(/[\\/]/).pop() ?? location;
}

/** Trust anchors from signed trusted lists; see {@link TrustLists}. */
export const trustLists = (options: TrustListsOptions): TrustLists => new TrustLists(options);

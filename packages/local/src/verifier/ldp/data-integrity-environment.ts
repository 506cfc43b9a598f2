import type { DidDocument } from '../../did/did-document.js';
import { resolveDidDocument } from '../../did/resolve-did-key.js';
import type { DataIntegrityEnvironment } from '../../data-integrity/verify-data-integrity-proof.js';
import type { VerifierContext } from '../verifier-context.js';

/**
 * The Data Integrity environment of one verify call: the configured contexts, suites and limits,
 * and DID resolution through the verifier's DID-method configuration and outbound policy, each
 * DID resolved at most once per call (a VP and its credentials often share one).
 */
export function dataIntegrityEnvironment(ctx: VerifierContext): DataIntegrityEnvironment {
  const resolved = new Map<string, Promise<DidDocument>>();
  const { dataIntegrity, outboundPolicy, didWeb, didResolver } = ctx.options;
  return {
    contexts: dataIntegrity.contextMap,
    cryptosuites: dataIntegrity.cryptosuiteSet,
    limits: {
      maxDepth: dataIntegrity.maxDepth,
      maxValues: dataIntegrity.maxValues,
      maxArrayLength: dataIntegrity.maxArrayLength,
      maxBlankNodes: dataIntegrity.maxBlankNodes,
      maxEmbeddedContexts: dataIntegrity.maxEmbeddedContexts,
      maxTermDefinitions: dataIntegrity.maxTermDefinitions,
    },
    canonicalizationTimeoutMs: dataIntegrity.canonicalizationTimeoutMs,
    signal: ctx.signal,
    now: ctx.now,
    skewMs: ctx.options.clockSkewMs,
    resolveDid: (did) => {
      let document = resolved.get(did);
      if (!document) {
        document = resolveDidDocument(did, {
          didMethods: ctx.didMethods,
          outbound: outboundPolicy,
          timeoutMs: didWeb.timeoutMs,
          maxBytes: didWeb.maxBytes,
          signal: ctx.signal,
          ...(didResolver ? { resolver: didResolver } : {}),
        });
        resolved.set(did, document);
      }
      return document;
    },
  };
}

import type { RequestSigner } from '../model/request-signer.js';

/** A reader key held in this process: a P-256 private key and its reader certificate chain. */
export interface KeyReaderAuthIdentity {
  /** P-256 private key: a JWK or a PKCS#8 (or SEC1) PEM. */
  privateKey: JsonWebKey | string;
  /** PEM or base64 DER, leaf (the reader certificate) first, without the reader CA root. */
  certificateChain: string[];
  signer?: never;
}

/** A reader key held elsewhere (PKCS#11 token, cloud KMS), reached through a {@link RequestSigner}. */
export interface SignerReaderAuthIdentity {
  /** Signs ES256 over the bytes it is given; its `certificateChain` starts with the reader certificate. */
  signer: RequestSigner;
  /** Longest wait for one `sign` call in ms (default 5000, at most 60000); past it a create answers 503 `signing.unavailable`. */
  timeoutMs?: number;
  privateKey?: never;
  certificateChain?: never;
}

/**
 * An instance's `readerAuth` option: sign every DocRequest of an `org-iso-mdoc` request
 * (ISO/IEC 18013-7 Annex C) with a `readerAuth`, a COSE_Sign1 over the ReaderAuthentication
 * (ISO/IEC 18013-5 9.1.4). `true` is `{}`.
 *
 * The reader certificate (the leaf) must carry the mdoc reader authentication extended key usage
 * (1.0.18013.5.1.6) and keyUsage digitalSignature; the instance refuses to start otherwise.
 */
export type ReaderAuthOption =
  | true
  | {
      /**
       * Who signs: `'signing'` (default) is the instance's primary signing identity, whose leaf
       * must then also be a reader certificate; or a dedicated reader identity (a key and its
       * chain, or a `signer` such as a PKCS#11 token).
       */
      identity?: 'signing' | KeyReaderAuthIdentity | SignerReaderAuthIdentity;
      /**
       * The COSE algorithm label: `ES256` (-7, ISO/IEC 18013-5:2021; default) or `ESP256` (-9, the
       * fully specified label of RFC 9864). Both are ECDSA P-256 with SHA-256.
       */
      alg?: 'ES256' | 'ESP256';
    };

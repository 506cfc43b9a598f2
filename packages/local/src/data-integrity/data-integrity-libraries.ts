/**
 * The maintained Data Integrity libraries (jsonld-signatures, @digitalbazaar/data-integrity and
 * one cryptosuite package per suite), loaded on first use. They are ES modules only: a dynamic
 * import loads them from this package's CommonJS build too, on every Node 20, and a verifier that
 * never sees a Data Integrity proof never pays for loading JSON-LD.
 */

/** What jsonld-signatures hands a document loader back. */
export interface RemoteDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
}
export type DocumentLoader = (url: string) => Promise<RemoteDocument>;

/** A cryptosuite object as @digitalbazaar/data-integrity takes it. */
export interface Cryptosuite {
  name: string;
  canonize(input: unknown, options: Record<string, unknown>): Promise<string>;
  createVerifier(options: { verificationMethod: unknown }): Promise<unknown>;
  [member: string]: unknown;
}

export interface ProofPurpose {
  term: string;
}

export interface ProofResult {
  proof: Record<string, unknown>;
  verified: boolean;
  verificationMethod?: Record<string, unknown>;
  purposeResult?: { valid: boolean; controller?: Record<string, unknown>; error?: unknown };
  error?: unknown;
}

export interface JsigsVerifyResult {
  verified: boolean;
  results?: ProofResult[];
  error?: unknown;
}

export interface DataIntegrityLibraries {
  verify(document: unknown, options: { suite: unknown[]; purpose: ProofPurpose; documentLoader: DocumentLoader }): Promise<JsigsVerifyResult>;
  assertionPurpose(): ProofPurpose;
  authenticationPurpose(options: { challenge: string; domain: string }): ProofPurpose;
  /** A DataIntegrityProof suite around one cryptosuite. */
  suite(cryptosuite: Cryptosuite): unknown;
  /** The verifying cryptosuite of each supported suite, as its package exports it. */
  cryptosuites: Record<string, Cryptosuite>;
}

let loading: Promise<DataIntegrityLibraries> | undefined;

async function load(): Promise<DataIntegrityLibraries> {
  const [jsigsModule, dataIntegrity, eddsaRdfc, ecdsaRdfc, eddsaJcs, ecdsaJcs, ecdsaSd, bbs] = await Promise.all([
    import('jsonld-signatures'),
    import('@digitalbazaar/data-integrity'),
    import('@digitalbazaar/eddsa-rdfc-2022-cryptosuite'),
    import('@digitalbazaar/ecdsa-rdfc-2019-cryptosuite'),
    import('@digitalbazaar/eddsa-jcs-2022-cryptosuite'),
    import('@digitalbazaar/ecdsa-jcs-2019-cryptosuite'),
    import('@digitalbazaar/ecdsa-sd-2023-cryptosuite'),
    import('@digitalbazaar/bbs-2023-cryptosuite'),
  ]);
  // jsonld-signatures is CommonJS: its API is the default export of the namespace.
  const jsigs = jsigsModule.default ?? jsigsModule;
  const { AssertionProofPurpose, AuthenticationProofPurpose } = jsigs.purposes;
  const DataIntegrityProof = dataIntegrity.DataIntegrityProof;
  return {
    verify: (document, options) => jsigs.verify(document, options),
    assertionPurpose: () => new AssertionProofPurpose(),
    authenticationPurpose: (options) => new AuthenticationProofPurpose(options),
    suite: (cryptosuite) => new DataIntegrityProof({ cryptosuite }),
    cryptosuites: {
      'eddsa-rdfc-2022': eddsaRdfc.cryptosuite,
      'ecdsa-rdfc-2019': ecdsaRdfc.cryptosuite,
      'eddsa-jcs-2022': eddsaJcs.createVerifyCryptosuite(),
      'ecdsa-jcs-2019': ecdsaJcs.createVerifyCryptosuite(),
      'ecdsa-sd-2023': ecdsaSd.createVerifyCryptosuite(),
      'bbs-2023': bbs.createVerifyCryptosuite(),
    },
  };
}

/** The libraries, imported once per process (a failed import is retried on the next call). */
export function dataIntegrityLibraries(): Promise<DataIntegrityLibraries> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

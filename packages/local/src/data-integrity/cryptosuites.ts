/**
 * The Data Integrity cryptosuites verified in process, each by its maintained implementation
 * (`@digitalbazaar/<name>-cryptosuite`). A proof with any other `cryptosuite`, or of another proof
 * type (Ed25519Signature2020, JsonWebSignature2020, BbsBlsSignature2020, …), fails with
 * data_integrity.cryptosuite_unsupported.
 */
export const DATA_INTEGRITY_CRYPTOSUITES = ['eddsa-rdfc-2022', 'ecdsa-rdfc-2019', 'eddsa-jcs-2022', 'ecdsa-jcs-2019', 'ecdsa-sd-2023', 'bbs-2023'] as const;
export type DataIntegrityCryptosuite = (typeof DATA_INTEGRITY_CRYPTOSUITES)[number];

/** Suites that canonicalize with RDFC-1.0 through the cryptosuite's own `canonize`. */
const RDFC_SUITES: ReadonlySet<string> = new Set(['eddsa-rdfc-2022', 'ecdsa-rdfc-2019']);
export const usesRdfcCanonize = (name: string): boolean => RDFC_SUITES.has(name);

export const isDataIntegrityCryptosuite = (name: unknown): name is DataIntegrityCryptosuite => typeof name === 'string' && (DATA_INTEGRITY_CRYPTOSUITES as readonly string[]).includes(name);

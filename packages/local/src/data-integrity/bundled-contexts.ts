import bitstringStatusListV1 from './contexts/bitstring-status-list-v1.json';
import citizenshipV4rc1 from './contexts/citizenship-v4rc1.json';
import credentialsExamplesV2 from './contexts/credentials-examples-v2.json';
import credentialsUndefinedTermsV2 from './contexts/credentials-undefined-terms-v2.json';
import credentialsV1 from './contexts/credentials-v1.json';
import credentialsV2 from './contexts/credentials-v2.json';
import dataIntegrityV2 from './contexts/data-integrity-v2.json';
import ed25519Signature2020V1 from './contexts/ed25519-2020-v1.json';
import multikeyV1 from './contexts/multikey-v1.json';
import statusList2021V1 from './contexts/status-list-2021-v1.json';

/**
 * The version of the bundled context set. It changes whenever a context is added or a file
 * changes; a file never changes without it. The files in `contexts/` are the published
 * documents, unedited (sources in the package README).
 */
export const BUNDLED_CONTEXTS_VERSION = '2025-02';

/** VCDM 1.1 and 2.0 base contexts: the first `@context` entry of every credential and presentation. */
export const CREDENTIALS_V1_URL = 'https://www.w3.org/2018/credentials/v1';
export const CREDENTIALS_V2_URL = 'https://www.w3.org/ns/credentials/v2';

/**
 * Every JSON-LD context the verifier serves without configuration, by URL. Nothing else is ever
 * loaded unless the operator adds it (`dataIntegrity.contexts`); nothing is fetched.
 */
export const BUNDLED_CONTEXTS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  [CREDENTIALS_V1_URL, credentialsV1],
  [CREDENTIALS_V2_URL, credentialsV2],
  ['https://www.w3.org/ns/credentials/undefined-terms/v2', credentialsUndefinedTermsV2],
  ['https://www.w3.org/ns/credentials/examples/v2', credentialsExamplesV2],
  ['https://w3id.org/security/data-integrity/v2', dataIntegrityV2],
  ['https://w3id.org/security/multikey/v1', multikeyV1],
  ['https://w3id.org/security/suites/ed25519-2020/v1', ed25519Signature2020V1],
  ['https://www.w3.org/ns/credentials/status/v1', bitstringStatusListV1],
  ['https://w3id.org/vc/status-list/2021/v1', statusList2021V1],
  ['https://w3id.org/citizenship/v4rc1', citizenshipV4rc1],
]);

// The public API of @vp-authorizer/pkcs11: a RequestSigner whose key stays on a PKCS#11 token.
export { openPkcs11Signer, type Pkcs11Signer, type Pkcs11SignerOptions } from './pkcs11-signer.js';
export { Pkcs11SignerError } from './pkcs11-signer-error.js';
export { generatePkcs11Key } from './generate-key.js';
export type { TokenSelector } from './find-token.js';

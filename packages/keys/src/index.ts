// The public API of @vp-authorizer/keys. The `vp-authorizer keys` command is the package's bin.
export { generateDevSigningKey, type DevSigningKey, type DevSigningInput } from './dev-signing-key.js';
export { createCertificateSigningRequest, type CsrKey, type CsrOptions } from './certificate-signing-request.js';

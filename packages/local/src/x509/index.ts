export { verifyCertificateChain, type ChainVerification } from './verify-certificate-chain.js';
export { authorityKeyIdentifiers } from './authority-key-identifiers.js';
export { parseCertificate, parsePemCertificates, type ParsedCertificate } from './certificate.js';
export { parseTrustAnchors } from './trust-anchors.js';

// The Data Integrity libraries ship JavaScript without declarations; data-integrity-libraries.ts
// gives the parts this package calls their types.
declare module 'jsonld-signatures';
declare module '@digitalbazaar/data-integrity';
declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
declare module '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite';
declare module '@digitalbazaar/eddsa-jcs-2022-cryptosuite';
declare module '@digitalbazaar/ecdsa-jcs-2019-cryptosuite';
declare module '@digitalbazaar/ecdsa-sd-2023-cryptosuite';
declare module '@digitalbazaar/bbs-2023-cryptosuite';
declare module 'jsonld';

// The Data Integrity issuing libraries the ldp_vp flow uses ship no declarations.
declare module '@digitalbazaar/vc';
declare module '@digitalbazaar/data-integrity';
declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
declare module '@digitalbazaar/ed25519-multikey';

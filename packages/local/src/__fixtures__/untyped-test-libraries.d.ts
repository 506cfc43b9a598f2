// Issuing libraries the tests use that ship no declarations.
declare module '@digitalbazaar/vc';
declare module '@digitalbazaar/ed25519-multikey';
declare module '@digitalbazaar/ecdsa-multikey';
declare module '@digitalbazaar/bls12-381-multikey';

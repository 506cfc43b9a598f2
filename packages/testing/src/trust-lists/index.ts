export { createListSigner, type ListSigner } from './list-signer.js';
export { trustedListXml, signTrustedList, buildSignedList, GRANTED, WITHDRAWN, GENERIC, LOTL, type ListSpec, type ServiceSpec, type PointerSpec } from './trusted-list.js';

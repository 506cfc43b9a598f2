// @peculiar/x509 (via tsyringe) needs the Reflect metadata polyfill before it loads.
import 'reflect-metadata';
export * from './verifier/index.js';
export * from './validator/index.js';
export * from './outbound/index.js';
export type { IssuerAnchorSource, IssuerAnchorQuery, IssuerAnchorAnswer } from './x509/issuer-anchors.js';

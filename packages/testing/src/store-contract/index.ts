export * from './describe-store-contract.js';
export * from './make-test-record.js';
export * from './test-clock.js';

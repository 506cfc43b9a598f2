export { describeCorsContract } from './describe-cors-contract.js';
export { describeCorsBrowserContract, type CorsBrowserOptions } from './describe-cors-browser-contract.js';
export type { CorsTarget, CorsTargetStart } from './cors-target.js';
export { rawRequest, header, headerList, type RawResponse } from './raw-request.js';

export { localValidator, type LocalValidatorOptions } from './local-validator.js';
export type { ValidatorErrorCode } from './validator-results.js';

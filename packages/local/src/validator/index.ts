export { localValidator, type LocalValidatorOptions } from './local-validator.js';
export { VALIDATOR_ERROR_TITLES, VALIDATOR_ERROR_TYPE_BASE, type ValidatorErrorCode } from './validator-results.js';

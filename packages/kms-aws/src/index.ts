// The public API of @vp-authorizer/kms-aws: a RequestSigner whose key stays in AWS KMS.
export { awsKmsSigner, type AwsKmsSigner, type AwsKmsSignerOptions } from './aws-kms-signer.js';
export { derToP1363 } from './der-to-p1363.js';

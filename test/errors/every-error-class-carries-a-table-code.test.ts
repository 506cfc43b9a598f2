// Every error class the packages export (and the internal ones that end a policy check) carries a
// stable `code` from core's one table. A newly exported error class without an entry below fails.
import { describe, expect, it } from 'vitest';
import * as core from '@vp-authorizer/core';
import * as coreFormats from '@vp-authorizer/core/formats';
import * as coreHttp from '@vp-authorizer/core/http';
import * as local from '@vp-authorizer/local';
import * as redis from '@vp-authorizer/redis';
import { CODES } from '@vp-authorizer/core';
import { PolicyFailure } from '../../packages/local/src/verifier/policy-failure.js';
import { UnsupportedJsonPathError } from '../../packages/local/src/validator/presentation-exchange/json-path.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** One or more sample instances per class: every code-bearing variant a constructor can make. */
const SAMPLES: Record<string, () => Error[]> = {
  AuthorizerError: () => [new core.AuthorizerError('request.invalid_body'), new core.AuthorizerError('server.internal_error')],
  ConfigError: () => [new core.ConfigError('Invalid options:', [{ path: 'publicBaseUrl', message: 'must be a URL' }])],
  StoreUnavailableError: () => [new core.StoreUnavailableError()],
  StoreQuotaExceededError: () => [new core.StoreQuotaExceededError('instance a holds 3 records')],
  SignerUnavailableError: () => [new core.SignerUnavailableError('the token did not answer within 5000 ms')],
  ServiceCallError: () => (['service.unavailable', 'service.bad_response', 'service.timeout'] as const).map((code) => new core.ServiceCallError(code, 'validator /validate: HTTP 503', { service: 'validator', attempts: 1 })),
  CborBudgetExceeded: () => [new coreFormats.CborBudgetExceeded()],
  WalletCborRefused: () => [new coreFormats.WalletCborRefused('trailing bytes after the CBOR item')],
  StatusListError: () => [new local.StatusListError('status.unavailable', 'the status list could not be fetched'), new local.StatusListError('status.unsupported', 'unknown status mechanism')],
  DidResolutionError: () => [new local.DidResolutionError('did.invalid', 'not a DID'), new local.DidResolutionError('did.needs_remote_resolver', 'did:ebsi needs a remote resolver')],
  OutboundFetchError: () => (['destination', 'timeout', 'too_large', 'redirect', 'http_status', 'network'] as const).map((reason) => new local.OutboundFetchError(reason)),
  FormatFailure: () => [new coreFormats.FormatFailure('format.cardinality', 'two presentations for one query')],
  RecordFormatError: () => [new redis.RecordFormatError('written by a newer version', 9)],
};

function exportedErrorClasses(): [string, ErrorClass][] {
  const modules = { '@vp-authorizer/core': core, '@vp-authorizer/core/formats': coreFormats, '@vp-authorizer/core/http': coreHttp, '@vp-authorizer/local': local, '@vp-authorizer/redis': redis };
  return Object.values(modules).flatMap((module) =>
    Object.entries(module).filter((entry): entry is [string, ErrorClass] => typeof entry[1] === 'function' && (entry[1] as { prototype?: unknown }).prototype instanceof Error),
  );
}

describe('error classes', () => {
  it('every exported error class has samples here (so the code check below cannot miss one)', () => {
    const names = exportedErrorClasses().map(([name]) => name);
    expect(names.length).toBeGreaterThanOrEqual(10);
    expect(names.filter((name) => !(name in SAMPLES))).toEqual([]);
  });

  it.each(exportedErrorClasses())('%s instances carry a code from the one table', (name, ErrorClass) => {
    for (const error of SAMPLES[name]!()) {
      expect(error).toBeInstanceOf(ErrorClass);
      expect(Object.keys(CODES)).toContain((error as { code?: unknown }).code);
    }
  });

  it('the internal failures that end a policy check carry table codes too', () => {
    const internal: Error[] = [new PolicyFailure('proof.signature_invalid'), new UnsupportedJsonPathError('unsupported JSONPath: ..')];
    for (const error of internal) expect(Object.keys(CODES)).toContain((error as { code?: unknown }).code);
  });
});

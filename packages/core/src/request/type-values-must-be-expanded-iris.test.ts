import { describe, expect, it } from 'vitest';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { parseCreateAuthorizationBody } from './create-authorization-body.js';

const body = (format: string, typeValues: unknown) => ({
  responseMode: 'direct_post.jwt',
  query: { type: 'DCQL', dcql: { credentials: [{ id: 'vc', format, meta: { type_values: typeValues } }] } },
});

function refusal(value: unknown): { pointer: string; detail: string }[] {
  try {
    parseCreateAuthorizationBody(value);
  } catch (error) {
    expect(error).toBeInstanceOf(AuthorizerError);
    expect((error as AuthorizerError).code).toBe('request.invalid_body');
    return ((error as AuthorizerError).errors ?? []) as { pointer: string; detail: string }[];
  }
  throw new Error('expected request.invalid_body');
}

// OpenID4VP 1.0 B.1.1, the spec's own example.
const SPEC_EXAMPLE = [['https://www.w3.org/2018/credentials#VerifiableCredential', 'https://www.w3.org/ns/credentials/undefined-term#ExamplePersonCredential']];

describe('DCQL type_values hold fully expanded type IRIs', () => {
  it.each(['ldp_vc', 'jwt_vc_json'])('accepts the spec example for %s', (format) => {
    expect(parseCreateAuthorizationBody(body(format, SPEC_EXAMPLE)).query.type).toBe('DCQL');
  });

  it.each(['ldp_vc', 'jwt_vc_json'])('refuses a bare name for %s at creation, naming the entry and the expanded IRI', (format) => {
    const errors = refusal(body(format, [['https://www.w3.org/2018/credentials#VerifiableCredential'], ['VerifiableCredential', 'UniversityDegreeCredential']]));
    expect(errors.map((e) => e.pointer)).toEqual(['/query/dcql/credentials/0/meta/type_values/1/0', '/query/dcql/credentials/0/meta/type_values/1/1']);
    expect(errors[0]?.detail).toContain('"https://www.w3.org/2018/credentials#VerifiableCredential"');
    expect(errors[1]?.detail).toContain("the credential's @context");
  });

  it('refuses an empty alternative, which would match every credential', () => {
    expect(refusal(body('ldp_vc', [[]])).map((e) => e.pointer)).toEqual(['/query/dcql/credentials/0/meta/type_values']);
  });
});

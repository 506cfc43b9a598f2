import * as v from 'valibot';
import type { AuthorizationQuery, DcApiProtocol, DcqlQuery, ResponseType } from '../model/authorization-record.js';
import { AuthorizerError, type FieldError } from '../errors/authorizer-error.js';
import { dcqlQueryIssues, dcqlQuerySchema } from './dcql-query.js';
import { issueDetail, issuePointer } from './json-pointer.js';
import { isExpectedOrigin } from '../config/origin.js';
import { plainObject } from '../model/plain-object.js';
import { presentationDefinitionIssues, presentationDefinitionSchema } from './presentation-definition.js';
import { bindTransactionData, transactionDataIssues } from './transaction-data.js';
import { walletMetadataShapeIssues } from './wallet-metadata.js';
import { parseCommonCreateBody } from './create-body-fast-path.js';
import { NONCE_PATTERN, isHttpUrl } from './create-body-rules.js';
import { hasCredentials, hasUnsafeCharacters } from '../config/redirect-uri.js';
import { createBodySizeIssues } from './create-body-size-limits.js';
import { annexCQueryIssues } from './annex-c-request.js';

export { NONCE_PATTERN };

const nonceSchema = v.pipe(v.string(), v.regex(NONCE_PATTERN, 'nonce must be 16 to 256 characters from [A-Za-z0-9-._~]'));
const transactionDataSchema = v.pipe(v.array(v.pipe(v.string(), v.minLength(1, 'entries must not be empty'))), v.minLength(1, 'transaction_data must not be empty'));
const verifierInfoSchema = v.pipe(
  v.array(
    v.looseObject({
      format: v.pipe(v.string('format is required'), v.minLength(1)),
      data: v.union([v.string(), plainObject('data must be a string or an object')], 'data must be a string or an object'),
      credential_ids: v.optional(v.pipe(v.array(v.string()), v.minLength(1, 'credential_ids must not be empty'))),
    }),
  ),
  v.minLength(1, 'verifier_info must not be empty'),
);
const httpUrlSchema = v.pipe(
  v.string(),
  v.check(isHttpUrl, 'redirectUri must be an absolute https or http URL'),
  // The detail never quotes the URI: it holds the credentials.
  v.check((uri) => !hasCredentials(uri), 'redirectUri must not carry credentials (user:password@)'),
  v.check((uri) => !hasUnsafeCharacters(uri), 'redirectUri must not contain a backslash, whitespace or control characters'),
);
const originSchema = v.pipe(v.string(), v.check(isExpectedOrigin, 'each expected origin must be an origin such as https://rp.example (scheme://host[:port], no path or trailing slash)'));

const common = {
  nonce: v.optional(nonceSchema),
  profile: v.optional(v.literal('haip', 'profile must be "haip" when present')),
  transaction_data: v.optional(transactionDataSchema),
  responseTypeParameters: v.optional(v.looseObject({ transaction_data: v.optional(transactionDataSchema), verifier_info: v.optional(verifierInfoSchema) })),
  walletMetadata: v.optional(plainObject('walletMetadata must be an object')),
  /** Library extension: where this authorization's status webhooks go (instead of the instance's webhooks.url). */
  webhookUrl: v.optional(v.pipe(v.string('webhookUrl must be a string'), v.maxLength(2048, 'webhookUrl must be at most 2048 characters'))),
};

const dcqlQuery = v.object({ type: v.literal('DCQL'), dcql: dcqlQuerySchema });
const peQuery = v.object({ type: v.literal('DIF.PresentationExchange'), presentationDefinition: presentationDefinitionSchema });

const directPostBodySchema = v.object({
  ...common,
  responseMode: v.picklist(['direct_post', 'direct_post.jwt']),
  responseType: v.optional(v.picklist(['vp_token', 'vp_token id_token'], 'responseType must be "vp_token" or "vp_token id_token"'), 'vp_token'),
  query: v.variant('type', [dcqlQuery, peQuery], 'query.type must be "DCQL" or "DIF.PresentationExchange"'),
  redirectUri: v.optional(httpUrlSchema),
});

const DC_API_PROTOCOLS = ['openid4vp-v1-unsigned', 'openid4vp-v1-signed', 'openid4vp-v1-multisigned', 'org-iso-mdoc'] as const;
const protocolSchema = v.picklist(DC_API_PROTOCOLS, 'protocol must be openid4vp-v1-unsigned, openid4vp-v1-signed, openid4vp-v1-multisigned or org-iso-mdoc');

const dcApiBodySchema = v.object({
  ...common,
  responseMode: v.picklist(['dc_api', 'dc_api.jwt']),
  responseType: v.optional(v.literal('vp_token', 'DC API response modes allow only responseType "vp_token"'), 'vp_token'),
  query: v.variant('type', [dcqlQuery], 'DC API response modes accept only DCQL queries (query.type "DCQL")'),
  protocol: v.optional(protocolSchema),
  /** Several protocols at once, in the order the browser is to offer them (one request each). */
  protocols: v.optional(v.pipe(v.array(protocolSchema), v.minLength(1, 'protocols must list at least one protocol'), v.maxLength(DC_API_PROTOCOLS.length, `protocols lists at most ${DC_API_PROTOCOLS.length} protocols`))),
  expectedOrigins: v.optional(v.pipe(v.array(originSchema), v.minLength(1, 'expectedOrigins must list at least one origin'))),
});

/** Structural schema of the create-authorization body (wire-api 1.1); cross-field rules live in `parseCreateAuthorizationBody`. */
export const createAuthorizationBodySchema = v.variant(
  'responseMode',
  [directPostBodySchema, dcApiBodySchema],
  'responseMode must be one of direct_post, direct_post.jwt, dc_api, dc_api.jwt',
);

export interface VerifierInfoEntry {
  format: string;
  data: string | Record<string, unknown>;
  credential_ids?: string[];
  [k: string]: unknown;
}

interface CommonBody {
  nonce?: string;
  profile?: 'haip';
  /** base64url JSON entries (top-level form, as newer reference clients send it). */
  transaction_data?: string[];
  responseTypeParameters?: { transaction_data?: string[]; verifier_info?: VerifierInfoEntry[]; [k: string]: unknown };
  walletMetadata?: Record<string, unknown>;
  webhookUrl?: string;
}

export interface DirectPostAuthorizationBody extends CommonBody {
  responseMode: 'direct_post' | 'direct_post.jwt';
  responseType: ResponseType;
  query: AuthorizationQuery;
  redirectUri?: string;
}

export interface DcApiAuthorizationBody extends CommonBody {
  responseMode: 'dc_api' | 'dc_api.jwt';
  responseType: 'vp_token';
  query: { type: 'DCQL'; dcql: DcqlQuery };
  /** The protocol, or the first of `protocols`. */
  protocol: DcApiProtocol;
  /** Every protocol offered, when the body listed them (`protocols`). */
  protocols?: DcApiProtocol[];
  expectedOrigins?: string[];
}

/** The protocols a DC API body offers, in order. */
export const bodyProtocols = (body: DcApiAuthorizationBody): DcApiProtocol[] => body.protocols ?? [body.protocol];
const isOpenId4VpProtocol = (protocol: DcApiProtocol): boolean => protocol !== 'org-iso-mdoc';

/** A validated create body, with `responseType` defaulted. */
export type CreateAuthorizationBody = DirectPostAuthorizationBody | DcApiAuthorizationBody;

export const isDcApiBody = (body: CreateAuthorizationBody): body is DcApiAuthorizationBody =>
  body.responseMode === 'dc_api' || body.responseMode === 'dc_api.jwt';

/** transaction_data from either place it may be given (top level wins; both must agree). */
export const transactionDataOf = (body: CreateAuthorizationBody): string[] | undefined =>
  body.transaction_data ?? body.responseTypeParameters?.transaction_data;

export const verifierInfoOf = (body: CreateAuthorizationBody): VerifierInfoEntry[] | undefined => body.responseTypeParameters?.verifier_info;

function invalid(errors: FieldError[]): AuthorizerError {
  // Only unsupported patterns: their own code, so that a client can tell them from a malformed body.
  const code = errors.every((e) => e.code === 'request.unsupported_pattern') ? 'request.unsupported_pattern' : 'request.invalid_body';
  return new AuthorizerError(code, { errors, message: `The request body is invalid: ${errors[0]!.detail}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}.` });
}

/** Per-instance choices that change what a create body may contain. */
export interface CreateBodyOptions {
  /**
   * Refuse `transaction_data` entries without `credential_ids` (OpenID4VP 1.0 section 5.1)
   * instead of binding them to every credential query. Default false.
   */
  requireTransactionDataCredentialIds?: boolean;
}

function queryIdsOf(body: CreateAuthorizationBody): { knownIds: string[]; bindingWaived: Set<string> } {
  if (body.query.type === 'DCQL') {
    const credentials = body.query.dcql.credentials;
    return { knownIds: credentials.map((c) => c.id), bindingWaived: new Set(credentials.filter((c) => c.require_cryptographic_holder_binding === false).map((c) => c.id)) };
  }
  return { knownIds: body.query.presentationDefinition.input_descriptors.map((d) => d.id), bindingWaived: new Set() };
}

function crossFieldIssues(body: CreateAuthorizationBody, options: CreateBodyOptions): FieldError[] {
  const issues: FieldError[] = [];
  const knownIds = new Set<string>();
  const bindingWaived = new Set<string>();
  if (body.query.type === 'DCQL') {
    issues.push(...dcqlQueryIssues(body.query.dcql, ['query', 'dcql']));
    for (const c of body.query.dcql.credentials) {
      knownIds.add(c.id);
      if (c.require_cryptographic_holder_binding === false) bindingWaived.add(c.id);
    }
  } else {
    issues.push(...presentationDefinitionIssues(body.query.presentationDefinition, ['query', 'presentationDefinition']));
    for (const d of body.query.presentationDefinition.input_descriptors) knownIds.add(d.id);
  }

  if (isDcApiBody(body)) issues.push(...protocolIssues(body));

  const top = body.transaction_data;
  const nested = body.responseTypeParameters?.transaction_data;
  if (top && nested && JSON.stringify(top) !== JSON.stringify(nested)) {
    issues.push({ pointer: '/transaction_data', detail: 'transaction_data is given both at the top level and in responseTypeParameters with different values; send it once' });
  }
  const strict = options.requireTransactionDataCredentialIds ?? false;
  if (top) issues.push(...transactionDataIssues(top, ['transaction_data'], knownIds, bindingWaived, strict));
  else if (nested) issues.push(...transactionDataIssues(nested, ['responseTypeParameters', 'transaction_data'], knownIds, bindingWaived, strict));

  if (body.walletMetadata) {
    for (const issue of walletMetadataShapeIssues(body.walletMetadata)) issues.push({ ...issue, pointer: `/walletMetadata${issue.pointer}` });
  }

  body.responseTypeParameters?.verifier_info?.forEach((info, i) =>
    info.credential_ids?.forEach((id, j) => {
      if (!knownIds.has(id)) issues.push({ pointer: `/responseTypeParameters/verifier_info/${i}/credential_ids/${j}`, detail: `"${id}" is not a credential query id of this request` });
    }),
  );
  return issues;
}

function protocolIssues(body: DcApiAuthorizationBody): FieldError[] {
  const issues: FieldError[] = [];
  const given = body as { protocol?: DcApiProtocol; protocols?: DcApiProtocol[] };
  if ((given.protocol === undefined) === (given.protocols === undefined)) {
    return [{ pointer: '/protocol', detail: 'give either protocol or protocols (a list), not both and not neither' }];
  }
  const protocols = bodyProtocols(body);
  if (new Set(protocols).size !== protocols.length) issues.push({ pointer: '/protocols', detail: 'protocols must not repeat a protocol' });
  // One OpenID4VP request per authorization: they would share one nonce and response mode.
  if (protocols.filter(isOpenId4VpProtocol).length > 1) issues.push({ pointer: '/protocols', detail: 'protocols may name at most one openid4vp-v1-* protocol' });
  const signed = protocols.find((p) => p === 'openid4vp-v1-signed' || p === 'openid4vp-v1-multisigned');
  if (signed !== undefined && body.expectedOrigins === undefined) issues.push({ pointer: '/expectedOrigins', detail: `expectedOrigins is required for protocol ${signed}` });
  if (protocols.includes('org-iso-mdoc')) {
    issues.push(...annexCQueryIssues(body.query.dcql, '/query/dcql'));
    // The Annex C nonce is random bytes the authorizer draws; a caller's text cannot stand in for them.
    if (body.nonce !== undefined) issues.push({ pointer: '/nonce', detail: 'protocol org-iso-mdoc takes a fresh nonce from the authorizer; leave nonce out' });
    if (body.profile === 'haip') issues.push({ pointer: '/profile', detail: 'profile haip applies to OpenID4VP only; it cannot be combined with protocol org-iso-mdoc' });
    if (transactionDataOf(body) !== undefined || verifierInfoOf(body) !== undefined) {
      issues.push({ pointer: '/transaction_data', detail: 'protocol org-iso-mdoc carries neither transaction_data nor verifier_info' });
    }
  }
  return issues;
}

/** Entries without `credential_ids` get every credential query's id (see `bindTransactionData`). */
function withBoundTransactionData(body: CreateAuthorizationBody): CreateAuthorizationBody {
  const entries = transactionDataOf(body);
  if (!entries) return body;
  const { knownIds, bindingWaived } = queryIdsOf(body);
  const bound = bindTransactionData(entries, knownIds, bindingWaived);
  if (bound.every((entry, i) => entry === entries[i])) return body;
  const out: CreateAuthorizationBody = { ...body };
  if (out.transaction_data) out.transaction_data = bound;
  if (out.responseTypeParameters?.transaction_data) out.responseTypeParameters = { ...out.responseTypeParameters, transaction_data: bound };
  return out;
}

/**
 * Validate a create-authorization body. Throws AuthorizerError('request.invalid_body', or
 * 'request.unsupported_pattern' when every problem is an unsupported filter pattern) whose
 * `errors` carry a JSON pointer for every problem found (not only the first).
 */
export function parseCreateAuthorizationBody(body: unknown, options: CreateBodyOptions = {}): CreateAuthorizationBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid([{ pointer: '', detail: 'the body must be a JSON object' }]);
  const query = (body as { query?: unknown }).query;
  if (query !== null && typeof query === 'object' && (query as { type?: unknown }).type === 'scope-alias') {
    throw invalid([{ pointer: '/query/type', detail: 'query type "scope-alias" is not supported: send the query itself as {type: "DCQL", dcql}' }]);
  }
  let parsed = parseCommonCreateBody(body as Record<string, unknown>);
  if (parsed === undefined) {
    const result = v.safeParse(createAuthorizationBodySchema, body);
    if (!result.success) throw invalid(result.issues.map((issue) => ({ pointer: issuePointer(issue), detail: issueDetail(issue) })));
    parsed = result.output as CreateAuthorizationBody;
  }
  // Before the cross-field rules: an oversized member is refused without any work on its content.
  const sizeIssues = createBodySizeIssues(parsed);
  if (sizeIssues.length > 0) throw invalid(sizeIssues);
  const issues = crossFieldIssues(parsed, options);
  if (issues.length > 0) throw invalid(issues);
  // `protocols` alone (the checks refused both or neither): its first entry is the protocol.
  if (isDcApiBody(parsed) && parsed.protocol === undefined) parsed = { ...parsed, protocol: parsed.protocols![0]! };
  return withBoundTransactionData(parsed);
}

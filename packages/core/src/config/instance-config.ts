import * as v from 'valibot';
import { corsConfigSchema } from './cors-config.js';
import { didMethodsConfigSchema } from '../model/did-methods-config.js';
import { isExpectedOrigin } from './origin.js';
import { allowListEntryProblem, hasCredentials, hasUnsafeCharacters } from './redirect-uri.js';

/**
 * Which validator or verifier client a policy uses: `{type: "managed"}` = the instance's own client;
 * `{type: "instance", resourceId}` = a client registered by name in `clients` (the literal
 * `"instance"` is the hosted API's word for a registered service, not an authorizer instance). The
 * hosted API's `serviceRole` has no meaning here: the client object carries its own credentials.
 */
export const serviceClientReferenceSchema = v.variant('type', [
  v.object({ type: v.literal('managed') }),
  v.object({ type: v.literal('instance'), resourceId: v.pipe(v.string(), v.minLength(1)) }),
]);
export type ServiceClientReference = v.InferOutput<typeof serviceClientReferenceSchema>;

/** One `allowedRedirectUris` entry, with the reason it is refused (allowListEntryProblem). */
const redirectAllowListEntry = v.rawCheck<string>(({ dataset, addIssue }) => {
  const problem = dataset.typed ? allowListEntryProblem(dataset.value) : undefined;
  if (problem !== undefined) addIssue({ message: `allowedRedirectUris: ${problem}` });
});

const timeoutMs = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600_000)), 10_000);

export const instanceConfigSchema = v.optional(
  v.object({
    cors: corsConfigSchema,
    policies: v.optional(
      v.object({
        validate: v.optional(v.object({ skip: v.optional(v.boolean(), false), validator: v.optional(serviceClientReferenceSchema, { type: 'managed' }), timeoutMs }), {}),
        verify: v.optional(v.object({ skip: v.optional(v.boolean(), false), verifier: v.optional(serviceClientReferenceSchema, { type: 'managed' }), timeoutMs }), {}),
      }),
      {},
    ),
    openId4vp: v.optional(
      v.object({
        authorizationEndpoint: v.optional(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9+.-]*:/i, 'authorizationEndpoint must be a URI such as "openid4vp:" or "haip-vp://"')), 'openid4vp:'),
        /** Authorization lifetime in milliseconds. */
        expiresAfter: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1_000), v.maxValue(86_400_000)), 300_000),
        /** Response-code lifetime in milliseconds. */
        responseCodeTtl: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1_000), v.maxValue(3_600_000)), 300_000),
        /**
         * Refuse to resolve a response code unless the caller names the authorization it expects
         * (`authorization_id`), binding the code to the RP's session. Off by default: clients of the
         * hosted API send only `response_code`.
         */
        requireResponseCodeAuthorizationId: v.optional(v.boolean(), false),
        /** How long a finished record stays readable after it expired, in milliseconds. */
        retention: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 86_400_000),
        /**
         * How long the data a wallet disclosed is kept once the authorization is finished (claims,
         * credentials, policy-result data and problem details, wallet metadata), in milliseconds.
         * Unset windows keep it as long as the record itself (`retention`, as before). `afterTerminal`:
         * from the terminal status (at least `responseCodeTtl`, so that a response code never
         * outlives the data it leads to); `afterRead`: from the relying party's first read of the
         * claims or policy results (0: right after that read); the earlier end applies. `mode`:
         * `anonymize` (default) erases the data and keeps the outcome, status and timings until the
         * record's end; `delete` removes the whole record at the end of the window.
         */
        dataRetention: v.optional(
          v.object({
            afterTerminal: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1_000, 'dataRetention.afterTerminal must be at least 1000 ms'))),
            afterRead: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0, 'dataRetention.afterRead must be ≥ 0 ms'))),
            mode: v.optional(v.picklist(['delete', 'anonymize'], 'dataRetention.mode must be "delete" or "anonymize"'), 'anonymize'),
          }),
          {},
        ),
        /** Default redirect URI for direct_post flows (the response code is appended). Never with credentials, a backslash, whitespace or control characters. */
        redirectUri: v.optional(
          v.pipe(
            v.string(),
            v.url('redirectUri must be an absolute URL'),
            v.check((uri) => !hasCredentials(uri), 'redirectUri must not carry credentials (user:password@)'),
            v.check((uri) => !hasUnsafeCharacters(uri), 'redirectUri must not contain a backslash, whitespace or control characters'),
          ),
        ),
        /**
         * Where wallets may send users back: exact URIs (compared as strings) or origins
         * (`https://app.example`: any URI on it). When set, binds `redirectUri` above (checked
         * at construction) and the `redirectUri` of every create request (400 otherwise). Unset: any http(s)
         * URI a request names.
         */
        allowedRedirectUris: v.optional(
          v.pipe(
            v.array(v.pipe(v.string('allowedRedirectUris entries must be strings'), redirectAllowListEntry)),
            v.minLength(1, 'allowedRedirectUris must list at least one URI or origin (leave it out to allow any)'),
          ),
        ),
        clientIdPrefix: v.optional(v.picklist(['x509_hash', 'x509_san_dns']), 'x509_hash'),
        clientMetadata: v.optional(
          v.object({
            clientName: v.optional(v.string()),
            clientUri: v.optional(v.pipe(v.string(), v.url())),
            location: v.optional(v.string()),
            logoUri: v.optional(v.pipe(v.string(), v.url())),
          }),
          {},
        ),
        /** `anchor` is reported as `anchorType` by GET /instances/oid4vp-trust-anchor (the certificate is `signing.trustAnchor`). */
        trustAnchor: v.optional(v.object({ anchor: v.optional(v.picklist(['root', 'account', 'instance']), 'root') }), {}),
        /**
         * What a wallet is answered when its presentation is `rejected` by a policy (direct_post modes):
         * 'error' = 400 `invalid_request` (what wallets and the conformance suite expect); 'redirect' =
         * 200 with the redirect URI, whose response code resolves to `rejected`. A wallet's own error
         * response always gets 200.
         */
        rejectedResponse: v.optional(v.picklist(['error', 'redirect']), 'error'),
        /**
         * How wallets may fetch the request object at `…/authorizations/{id}/jwt`. `methods`: GET
         * and/or POST (request_uri_method=post); another method answers 405, and the authorizeUrl
         * asks for POST only when POST is allowed. `singleFetch`: serve it once; a second fetch
         * answers 400 `invalid_request` (defeats replay of the request object, but breaks wallets
         * that retry a fetch whose answer they lost). Default: both methods, any number of fetches.
         */
        requestObject: v.optional(
          v.object({
            methods: v.optional(
              v.pipe(
                v.array(v.picklist(['GET', 'POST'], 'requestObject.methods may list only "GET" and "POST"')),
                v.minLength(1, 'requestObject.methods must allow at least one method'),
                v.check((list) => new Set(list).size === list.length, 'requestObject.methods must not repeat a method'),
              ),
              ['GET', 'POST'],
            ),
            singleFetch: v.optional(v.boolean(), false),
          }),
          {},
        ),
        transactionData: v.optional(
          v.object({
            /**
             * Refuse (400) `transaction_data` entries without `credential_ids`, as OpenID4VP 1.0
             * section 5.1 requires them. Off by default: clients of the hosted API send such
             * entries, and each is bound to every credential query of its request instead.
             */
            requireCredentialIds: v.optional(v.boolean(), false),
          }),
          {},
        ),
        /** Require wallets posting wallet_metadata to list the client id prefix (off: many wallets omit it). */
        requireWalletClientIdPrefix: v.optional(v.boolean(), false),
        dcApi: v.optional(
          v.object({
            /**
             * Origins an unsigned DC API response may come from when the create request gave no
             * expectedOrigins (the request itself carries none to the wallet). Left out: the
             * origin of `publicBaseUrl` and the instance's CORS origins when CORS is enabled
             * (never "*"; see dcApiAllowedOrigins). `[]`: none, so an unsigned request without
             * expectedOrigins is refused at creation (the response origin must be checked).
             */
            allowedOrigins: v.optional(
              v.array(v.pipe(v.string(), v.check(isExpectedOrigin, 'each allowed origin must be an origin such as https://rp.example (scheme://host[:port], no path or trailing slash) or android:apk-key-hash:…'))),
            ),
          }),
          {},
        ),
      }),
      {},
    ),
    didMethods: didMethodsConfigSchema,
  }),
  {},
);

/** The `config` member of InstanceOptions as written (plain data in the hosted API's shape). */
export type InstanceConfigInput = v.InferInput<typeof instanceConfigSchema>;
/** The same with its defaults filled in, as the instance runtime reads it. */
export type InstanceConfig = v.InferOutput<typeof instanceConfigSchema>;

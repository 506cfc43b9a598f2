// Shared setup for the end-to-end tests (not a test file): a real authorizer behind node:http on
// 127.0.0.1, the local verifier and validator trusting a test issuer, and a small RP client.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Authorizer, type AuthorizerOptions, type InstanceConfigInput, type ReaderAuthOption, type SigningInput, type KeySigningInput, createAuthorizer } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { type IssuerAnchorSource, localValidator, localVerifier } from '@vp-authorizer/local';
import { type RespondOptions, type TestIssuer, type TestWallet, createTestIssuer } from '@vp-authorizer/testing';

export const API_KEY = 'e2e-api-key-0123456789';
export const RP_CALLBACK = 'https://rp.example/callback';
export const PID_VCT = 'urn:eudi:pid:1';
export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
export const MDL_NS = 'org.iso.18013.5.1';
const V1 = '/openid4/vp/v1_0';

export interface PolicyResultView {
  path: (string | number)[];
  policy: string;
  service: string;
  data?: Record<string, unknown>;
  error?: { type: string; code?: string; detail?: string; title?: string };
}

export interface E2eEnvironment {
  baseUrl: string;
  authorizer: Authorizer;
  issuer: TestIssuer;
  verifierRootPem: string;
  /** The instance's primary signing identity (its private key must never surface in an answer or a log). */
  verifierSigning: KeySigningInput;
  rp: RpClient;
  /** Moves the authorizer's clock forward (the verifier keeps real time). */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/** Node http → Web Request → authorizer.fetch → Node http, the bridge every adapter also does. */
async function bridge(authorizer: () => Authorizer, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  const response = await authorizer().fetch(new Request(new URL(req.url ?? '/', origin), { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function startE2eEnvironment(
  options: {
    issuer?: TestIssuer;
    trustAnchors?: string[];
    /** Issuer roots from trusted lists, beside `trustAnchors` (pass `trustAnchors: []` for lists alone). */
    issuerAnchors?: IssuerAnchorSource;
    /** More signing identities after the generated primary (multi-signed DC API requests). */
    additionalSigning?: SigningInput[];
    /** Merged over the instance's openId4vp settings. */
    openId4vp?: NonNullable<NonNullable<InstanceConfigInput>['openId4vp']>;
    /**
     * false: the validator checks no issuer trust (a DID-signed W3C credential has no chain to a
     * PEM root, so with roots configured it is untrusted by design).
     */
    validatorTrust?: false;
    /** The instance's readerAuth; the generated primary identity then also carries the mdoc reader EKU. */
    readerAuth?: ReaderAuthOption;
    /** Authorizer-wide options passed through (logs, tracing, another store). */
    authorizer?: Pick<AuthorizerOptions, 'logger' | 'instrumentation' | 'store'>;
  } = {},
): Promise<E2eEnvironment> {
  const issuer = options.issuer ?? (await createTestIssuer());
  const trustAnchors = options.trustAnchors ?? [issuer.rootCertificatePem];
  let authorizer: Authorizer | undefined;
  const server = createServer((req, res) => {
    bridge(() => authorizer!, req, res, baseUrl).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dev = await generateDevSigningKey(options.readerAuth ? { readerAuth: true } : {});
  let offsetMs = 0;
  authorizer = createAuthorizer({
    ...options.authorizer,
    publicBaseUrl: baseUrl,
    clock: { now: () => Date.now() + offsetMs },
    sweepIntervalMs: 0,
    instances: [
      {
        id: 'e2e',
        apiKeys: [API_KEY],
        signing: options.additionalSigning ? [dev.signing, ...options.additionalSigning] : dev.signing,
        ...(options.readerAuth ? { readerAuth: options.readerAuth } : {}),
        // Unsigned DC API responses are only accepted from these origins (see dc-api.test.ts).
        config: { openId4vp: { redirectUri: RP_CALLBACK, dcApi: { allowedOrigins: ['https://rp.example'] }, ...options.openId4vp } },
        validator: options.validatorTrust === false ? localValidator() : localValidator({ ...(trustAnchors.length > 0 ? { trustedIssuers: trustAnchors } : {}), ...(options.issuerAnchors ? { issuerAnchors: options.issuerAnchors } : {}) }),
        // The test issuer's status list server is plain http on 127.0.0.1; production stays https-only.
        verifier: localVerifier({ trustAnchors, ...(options.issuerAnchors ? { issuerAnchors: options.issuerAnchors } : {}), outboundFetch: { dangerouslyAllowAnyDestination: true } }),
      },
    ],
  });
  await authorizer.ready();
  return {
    baseUrl,
    authorizer,
    issuer,
    verifierRootPem: dev.rootCertificatePem,
    verifierSigning: dev.signing,
    rp: rpClient(baseUrl),
    advanceClock(ms) {
      offsetMs += ms;
    },
    async close() {
      await authorizer!.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type RpClient = ReturnType<typeof rpClient>;

/** The relying party's backend calls, with the instance API key. */
function rpClient(baseUrl: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> | undefined };
  };
  const ok = async <T>(method: string, path: string, body?: unknown, expected = 200): Promise<T> => {
    const { status, body: json } = await call(method, path, body);
    if (status !== expected) throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(json)}`);
    return json as T;
  };
  return {
    call,
    create: (body: Record<string, unknown>) => ok<Record<string, unknown> & { authorizationId: string; nonce: string }>('POST', `${V1}/authorizations`, body, 201),
    status: async (id: string) => (await ok<{ status: string }>('GET', `${V1}/authorizations/${id}/status`)).status,
    policyResponse: async (id: string) => (await ok<{ data: PolicyResultView[] }>('GET', `${V1}/authorizations/${id}/policy-response`)).data,
    credentials: async (id: string) =>
      (await ok<{ credentials: { path: (string | number)[]; format: string; credentialType: string; claims: Record<string, unknown>; namespaces?: Record<string, Record<string, unknown>> }[] }>('GET', `${V1}/authorizations/${id}/credentials`)).credentials,
    resolve: (responseCode: string) => call('POST', `${V1}/response-code/resolve`, { response_code: responseCode }),
    dcApi: (id: string, mode: 'dc_api' | 'dc_api.jwt', body: unknown) => call('POST', `${V1}/${id}/${mode}`, body),
  };
}

/** The error codes of failed policy results (for assertions like `toContain('holder_binding.nonce_mismatch')`). */
export const failedCodes = (results: PolicyResultView[]): string[] => results.filter((r) => r.error).map((r) => r.error!.code ?? r.error!.type);

/** The response_code in the redirect_uri handed to the wallet. */
export function responseCodeOf(body: unknown): string {
  const redirect = (body as { redirect_uri?: string }).redirect_uri;
  if (!redirect) throw new Error(`no redirect_uri in ${JSON.stringify(body)}`);
  const url = new URL(redirect);
  const code = url.searchParams.get('response_code') ?? new URLSearchParams(url.hash.slice(1)).get('response_code');
  if (!code) throw new Error(`no response_code in ${redirect}`);
  return code;
}

export const pidQuery = (claims: string[] = ['given_name', 'family_name']) => ({
  id: 'pid',
  format: 'dc+sd-jwt',
  meta: { vct_values: [PID_VCT] },
  claims: claims.map((name) => ({ path: [name] })),
});

export const mdlQuery = (elements: string[] = ['family_name', 'given_name']) => ({
  id: 'mdl',
  format: 'mso_mdoc',
  meta: { doctype_value: MDL_DOCTYPE },
  claims: elements.map((element) => ({ path: [MDL_NS, element] })),
});

export const PID_CLAIMS = { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1984-01-26', nationalities: ['DE'] };
export const MDL_ELEMENTS = { family_name: 'Mustermann', given_name: 'Erika', document_number: 'D1234567', age_over_18: true };

/** Creates an authorization, lets the wallet answer it and reads back what the RP would see. */
export async function runRedirectFlow(
  env: E2eEnvironment,
  wallet: TestWallet,
  createBody: Record<string, unknown>,
  respondOptions: RespondOptions = {},
) {
  const created = await env.rp.create(createBody);
  const request = await wallet.receive(created.authorizeUrl as string, { verifierTrustAnchors: [env.verifierRootPem] });
  const result = await wallet.respond(request, respondOptions);
  return {
    created,
    request,
    result,
    status: await env.rp.status(created.authorizationId),
    policies: await env.rp.policyResponse(created.authorizationId),
  };
}

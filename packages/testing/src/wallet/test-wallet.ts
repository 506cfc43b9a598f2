import { randomUUID } from 'node:crypto';
import { createOpenid4vpAuthorizationResponse } from '@openid4vc/openid4vp';
import { buildDcqlVpToken, buildPexVpToken } from './build-vp-token.js';
import { type DcApiGetRequest, receiveDcApiRequest } from './dc-api-request.js';
import { type AnnexCGetRequest, type AnnexCReaderAuthOptions, type AnnexCTamper, respondAnnexC } from './annex-c-response.js';
import { didJwk } from './did-jwk.js';
import { type ResponseEnc, encryptResponse, selectEncryptionJwk } from './encrypt-response.js';
import { type P256KeyPair, generateP256KeyPair } from './holder-key.js';
import { matchDcql, matchPresentationDefinition } from './match-credentials.js';
import { openid4vcCallbacks } from './openid4vc-callbacks.js';
import { fetchBounded, type FetchBounds } from './fetch-bounded.js';
import { type ReceiveOptions, receiveAuthorizationRequest } from './receive-request.js';
import { type ReceivedRequest, expectedAudience, isDcApiRequest } from './received-request.js';
import { type IdTokenTamper, createSiopIdToken } from './siop-id-token.js';
import type { IssueJwtVcOptions, IssueMdocOptions, IssueSdJwtVcOptions, TestIssuer } from './test-issuer.js';
import type { JwtVcWalletCredential, MdocWalletCredential, Presentation, SdJwtWalletCredential, WalletCredential } from './wallet-credential.js';

export interface RespondOptions {
  /** What to present, by DCQL credential query id (or PE input descriptor id). Default: matched from the stored credentials. */
  presentations?: Record<string, Presentation[]>;
  /** `enc` of an encrypted response. Default A256GCM when the verifier lists it, else its first value (A128GCM when it lists none). */
  enc?: ResponseEnc;
  /**
   * `jose` (default) encrypts with jose: header `alg, enc, kid`. `openid4vc` lets
   * @openid4vc/openid4vp 0.4.6 build the response, which always adds `apv` (base64url nonce).
   */
  encryption?: 'jose' | 'openid4vc';
  /** Replace `state` (null: leave it out). */
  state?: string | null;
  /** SIOP ID token: default included iff response_type contains id_token; `false` leaves it out. */
  idToken?: false | (IdTokenTamper & { include?: true });
  /** Replace the computed PE `presentation_submission`. */
  presentationSubmission?: Record<string, unknown>;
}

/** A response ready to send; `submit` can send it more than once (replay tests). */
export interface PreparedResponse {
  responseMode: string;
  /** The response_uri (direct_post modes). */
  responseUri?: string;
  /** Response parameters before encoding (`vp_token` as an object/array, `state`, …). */
  payload: Record<string, unknown>;
  /** Form fields for direct_post(.jwt). */
  form?: Record<string, string>;
  /** JWE compact for `.jwt` modes. */
  jwe?: string;
  /** The verifier key the response was encrypted to. */
  encryptionJwk?: JsonWebKey;
  /** DC API: what `navigator.credentials.get` would return as `data`. */
  digitalCredentialGetResponse?: { vp_token: Record<string, string[]> } | { response: string };
}

export interface SubmitResult {
  status: number;
  /** JSON body when it parses, else the text. */
  body: unknown;
  headers: Headers;
}

export interface TestWallet {
  /** did:jwk holder identifier (JWT VCs are issued to it). */
  holderDid: string;
  /** Self-issued ID token subject key. */
  subjectKey: P256KeyPair;
  credentials: WalletCredential[];
  /** Issues an SD-JWT VC bound to a fresh holder key (`holderBinding: false`: no `cnf`) and stores it. */
  addSdJwtVc(issuer: TestIssuer, options: Omit<IssueSdJwtVcOptions, 'holderPublicJwk'> & { id?: string; holderBinding?: boolean }): Promise<SdJwtWalletCredential>;
  /** Issues an mdoc bound to a fresh device key and stores it. */
  addMdoc(issuer: TestIssuer, options: Omit<IssueMdocOptions, 'deviceKeyJwk'> & { id?: string }): Promise<MdocWalletCredential>;
  /** Issues a JWT VC to the wallet's did:jwk and stores it. */
  addJwtVc(issuer: TestIssuer, options: Omit<IssueJwtVcOptions, 'subjectDid'> & { id?: string }): Promise<JwtVcWalletCredential>;
  /** Fetches and verifies the request behind an authorizeUrl (see receiveAuthorizationRequest). */
  receive(authorizeUrl: string, options?: ReceiveOptions): Promise<ReceivedRequest>;
  /** Reads a DC API `digitalCredentialGetRequest` as a browser at `origin` would hand it over. */
  receiveDcApi(getRequest: DcApiGetRequest, origin: string, options?: Pick<ReceiveOptions, 'verifierTrustAnchors'>): Promise<ReceivedRequest>;
  /** Builds the response (vp_token, optional id_token, encryption) without sending it. */
  createResponse(request: ReceivedRequest, options?: RespondOptions): Promise<PreparedResponse>;
  /**
   * POSTs a prepared direct_post(.jwt) response to its response_uri (no redirects followed), giving
   * up after `timeoutMs` (default 10 s) and reading at most `maxBodyBytes` of the answer (1 MiB).
   */
  submit(prepared: PreparedResponse, bounds?: FetchBounds): Promise<SubmitResult>;
  /** createResponse + submit. */
  respond(request: ReceivedRequest, options?: RespondOptions): Promise<SubmitResult & { prepared: PreparedResponse }>;
  /**
   * The DigitalCredential a browser would return for an org-iso-mdoc (ISO/IEC 18013-7 Annex C)
   * request, from this wallet's mdocs; `tamper` makes it wrong in one way. A DocRequest's
   * readerAuth is checked over the SessionTranscript of `origin` (refused: the call throws);
   * `requireReaderAuth` and `readerTrustAnchors` make the wallet as strict as one that requires
   * reader authentication.
   */
  respondAnnexC(getRequest: AnnexCGetRequest, options: { origin: string; tamper?: AnnexCTamper } & AnnexCReaderAuthOptions): ReturnType<typeof respondAnnexC>;
  /** The `digitalCredentialGetResponse` a browser would return for a DC API request. */
  respondDcApi(getRequest: DcApiGetRequest, options: RespondOptions & { origin: string; verifierTrustAnchors?: string[] }): Promise<{
    request: ReceivedRequest;
    prepared: PreparedResponse;
    digitalCredentialGetResponse: NonNullable<PreparedResponse['digitalCredentialGetResponse']>;
  }>;
}

/**
 * A test wallet on published libraries: @openid4vc/openid4vp (request verification, optional
 * response encryption), @sd-jwt (SD-JWT presentations with KB-JWT), @animo-id/mdoc
 * (DeviceResponse, with a 1.0 SessionTranscript built here) and jose.
 */
export async function createTestWallet(): Promise<TestWallet> {
  const holderKey = await generateP256KeyPair();
  const subjectKey = await generateP256KeyPair();
  const holderDid = didJwk(holderKey.publicJwk).did;
  const credentials: WalletCredential[] = [];

  async function createResponse(request: ReceivedRequest, options: RespondOptions = {}): Promise<PreparedResponse> {
    const presentations =
      options.presentations ??
      (request.dcqlQuery
        ? matchDcql(request.dcqlQuery, credentials)
        : request.presentationDefinition
          ? matchPresentationDefinition(request.presentationDefinition, credentials)
          : undefined);
    if (!presentations) throw new Error('test wallet: the request has neither dcql_query nor presentation_definition');

    const encrypted = request.responseMode.endsWith('.jwt');
    const encryptionJwk = encrypted ? selectEncryptionJwk(request.clientMetadata) : undefined;
    const payload: Record<string, unknown> = {};
    if (request.presentationDefinition && !request.dcqlQuery) {
      const { vpToken, presentationSubmission } = await buildPexVpToken(request, presentations);
      payload.vp_token = vpToken;
      payload.presentation_submission = options.presentationSubmission ?? presentationSubmission;
    } else {
      payload.vp_token = await buildDcqlVpToken(request, presentations, encryptionJwk ?? null);
    }
    const wantsIdToken = options.idToken === false ? false : options.idToken !== undefined || request.responseType.split(' ').includes('id_token');
    if (wantsIdToken) {
      const tamper = options.idToken || {};
      payload.id_token = await createSiopIdToken({ subjectKey, audience: expectedAudience(request), nonce: request.nonce, tamper });
    }
    const state = options.state === undefined ? request.state : options.state;
    if (state !== null && state !== undefined && !isDcApiRequest(request)) payload.state = state;

    const prepared: PreparedResponse = { responseMode: request.responseMode, payload, ...(request.responseUri ? { responseUri: request.responseUri } : {}) };
    if (encryptionJwk) {
      const listed = request.clientMetadata?.encrypted_response_enc_values_supported as ResponseEnc[] | undefined;
      const enc = options.enc ?? (listed ? (listed.includes('A256GCM') ? 'A256GCM' : listed[0]!) : 'A128GCM');
      prepared.encryptionJwk = encryptionJwk;
      prepared.jwe = options.encryption === 'openid4vc' ? await encryptWithLibrary(request, payload, encryptionJwk, enc) : await encryptResponse(payload, encryptionJwk, { enc });
    }
    if (isDcApiRequest(request)) {
      prepared.digitalCredentialGetResponse = prepared.jwe ? { response: prepared.jwe } : { vp_token: payload.vp_token as Record<string, string[]> };
    } else if (prepared.jwe) {
      prepared.form = { response: prepared.jwe };
    } else {
      prepared.form = Object.fromEntries(
        Object.entries(payload).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
      );
    }
    return prepared;
  }

  async function submit(prepared: PreparedResponse, bounds?: FetchBounds): Promise<SubmitResult> {
    if (!prepared.form || !prepared.responseUri) throw new Error('test wallet: only direct_post responses are submitted by the wallet');
    const { response, body: text } = await fetchBounded(
      'response_uri',
      prepared.responseUri,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams(prepared.form) },
      bounds,
    );
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body, headers: response.headers };
  }

  const store = <T extends WalletCredential>(credential: T): T => {
    credentials.push(credential);
    return credential;
  };

  return {
    holderDid,
    subjectKey,
    credentials,
    async addSdJwtVc(issuer, { id, holderBinding = true, ...options }) {
      const key = holderBinding ? await generateP256KeyPair() : undefined;
      const compact = await issuer.issueSdJwtVc({ ...options, ...(key ? { holderPublicJwk: key.publicJwk } : {}) });
      return store({ format: 'dc+sd-jwt', id: id ?? randomUUID(), compact, vct: options.vct, ...(key ? { holderKey: key } : {}) });
    },
    async addMdoc(issuer, { id, ...options }) {
      const deviceKey = await generateP256KeyPair();
      const issued = await issuer.issueMdoc({ ...options, deviceKeyJwk: deviceKey.publicJwk });
      return store({ format: 'mso_mdoc', id: id ?? randomUUID(), docType: issued.docType, issuerSigned: issued.issuerSigned, deviceKey });
    },
    async addJwtVc(issuer, { id, ...options }) {
      const jwt = await issuer.issueJwtVc({ ...options, subjectDid: holderDid });
      return store({ format: 'jwt_vc_json', id: id ?? randomUUID(), jwt, dataModel: options.dataModel, types: ['VerifiableCredential', ...(options.types ?? ['TestCredential'])], holderKey });
    },
    receive: receiveAuthorizationRequest,
    receiveDcApi: receiveDcApiRequest,
    createResponse,
    submit,
    async respond(request, options) {
      const prepared = await createResponse(request, options);
      return { ...(await submit(prepared)), prepared };
    },
    respondAnnexC: (getRequest, options) => respondAnnexC(getRequest, credentials.filter((c): c is MdocWalletCredential => c.format === 'mso_mdoc'), options),
    async respondDcApi(getRequest, { origin, verifierTrustAnchors, ...options }) {
      const request = await receiveDcApiRequest(getRequest, origin, verifierTrustAnchors ? { verifierTrustAnchors } : {});
      const prepared = await createResponse(request, options);
      return { request, prepared, digitalCredentialGetResponse: prepared.digitalCredentialGetResponse! };
    },
  };
}

/** Lets @openid4vc/openid4vp build and encrypt the response (it adds `apv`; we add nothing). */
async function encryptWithLibrary(request: ReceivedRequest, payload: Record<string, unknown>, jwk: JsonWebKey, enc: ResponseEnc): Promise<string> {
  const { state: _state, ...withoutState } = payload;
  const result = await createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request.params as never,
    authorizationResponsePayload: withoutState as never,
    ...(request.origin ? { origin: request.origin } : {}),
    jarm: {
      encryption: { nonce: '', jwk: jwk as never },
      serverMetadata: { authorization_signing_alg_values_supported: [], authorization_encryption_alg_values_supported: ['ECDH-ES'], authorization_encryption_enc_values_supported: [enc] },
    },
    callbacks: openid4vcCallbacks,
  });
  if (!result.jarm) throw new Error('test wallet: the library produced no encrypted response');
  return result.jarm.responseJwt;
}

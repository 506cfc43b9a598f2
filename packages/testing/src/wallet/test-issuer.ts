import { randomUUID } from 'node:crypto';
import { Document, type IssuerSignedDocument, cborEncode } from '@animo-id/mdoc';
import { ES256, digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { type JWK, SignJWT, importJWK } from 'jose';
import { toBase64Url } from './base64url.js';
import { didJwk } from './did-jwk.js';
import { mdocContext } from './mdoc-context.js';
import { type StatusListBits, encodeStatusList } from './status-list.js';
import { type StatusListServer, startStatusListServer } from './status-list-server.js';
import { breakJwsSignature, flipBit } from './tamper.js';
import { type TestCa, createTestCa } from './test-ca.js';

const YEAR_S = 365 * 86_400;
const now = (): number => Math.floor(Date.now() / 1000);

/** Reference to one entry of a Token Status List (`status.status_list`). */
export interface StatusReference {
  idx: number;
  uri: string;
}

export interface IssueSdJwtVcOptions {
  vct: string;
  claims: Record<string, unknown>;
  /** Holder key for `cnf.jwk`; omit it for a credential without holder binding. */
  holderPublicJwk?: JsonWebKey;
  /**
   * Claims issued as selectively disclosable: top-level names or dot paths into nested objects
   * (`address.street_address`). Default: every top-level claim.
   */
  disclosable?: string[];
  status?: StatusReference;
  /** `x5c` header (standard base64 DER). Default: `[issuer leaf]`. */
  x5c?: string[];
  /** Seconds until `exp` (negative for an expired credential). Default: one year. */
  expiresInSeconds?: number;
  /** `typ` header. Default `dc+sd-jwt`. */
  typ?: 'dc+sd-jwt' | 'vc+sd-jwt';
  tamper?: 'issuer-signature';
}

export interface IssueMdocOptions {
  docType: string;
  /** `{namespace: {elementIdentifier: value}}`. */
  namespaces: Record<string, Record<string, unknown>>;
  deviceKeyJwk: JsonWebKey;
  /** Seconds until `validUntil` (negative for an expired document). Default: one year. */
  expiresInSeconds?: number;
  tamper?: 'issuer-signature';
}

/** An issuer-signed mdoc, as an OpenID4VCI issuer hands it to a wallet. */
export interface IssuedMdoc {
  docType: string;
  /** base64url CBOR `IssuerSigned` (`{nameSpaces, issuerAuth}`). */
  issuerSigned: string;
}

export interface IssueJwtVcOptions {
  dataModel: '1.1' | '2.0';
  subjectDid: string;
  claims: Record<string, unknown>;
  /** Extra types after `VerifiableCredential`. Default `['TestCredential']`. */
  types?: string[];
  /** `did:jwk` (default: `iss` = the issuer key's did:jwk, `kid` = its verification method) or `x5c`. */
  issuerIdentity?: 'did:jwk' | 'x5c';
  status?: StatusReference;
  expiresInSeconds?: number;
  tamper?: 'issuer-signature';
}

export interface CreateStatusListTokenOptions {
  /** The list's own URI; becomes `sub`. */
  uri: string;
  bits?: StatusListBits;
  statuses: readonly number[];
  /** Seconds until `exp`. Default one day. */
  expiresInSeconds?: number;
  /** `ttl` claim (how long verifiers may cache the list), omitted by default. */
  ttlSeconds?: number;
}

export interface TestIssuer {
  /** Trust anchor to configure in verifiers (PEM). Never part of any `x5c`. */
  rootCertificatePem: string;
  leafCertificatePem: string;
  /** Default `x5c`: `[leaf]` as standard base64 DER. */
  x5c: string[];
  /** `iss` of SD-JWT VCs and x5c-identified JWT VCs. */
  issuerId: string;
  /** did:jwk of the issuer key (JWT VCs with `issuerIdentity: 'did:jwk'`). */
  did: string;
  publicJwk: JsonWebKey;
  issueSdJwtVc(options: IssueSdJwtVcOptions): Promise<string>;
  issueMdoc(options: IssueMdocOptions): Promise<IssuedMdoc>;
  issueJwtVc(options: IssueJwtVcOptions): Promise<string>;
  statusList: {
    createStatusListToken(options: CreateStatusListTokenOptions): Promise<string>;
    /**
     * Serves a mutable status list on 127.0.0.1 (random port), freshly signed on every GET.
     * Verifiers may cache a list until `exp`/`ttl`: revoke before the first fetch, or use short
     * lifetimes, when a test needs the change to be seen.
     */
    startStatusListServer(options?: { bits?: StatusListBits; size?: number; expiresInSeconds?: number; ttlSeconds?: number }): Promise<StatusListServer>;
  };
}

export interface CreateTestIssuerOptions {
  /** Leaf subject CN. */
  commonName?: string;
  issuerId?: string;
  /** Share a CA between issuers; default: a fresh one. */
  ca?: TestCa;
}

/**
 * A credential issuer with its own test CA (self-signed root → issuer leaf). Every credential is
 * signed by the leaf with ES256 and carries `x5c = [leaf]`.
 */
export async function createTestIssuer(options: CreateTestIssuerOptions = {}): Promise<TestIssuer> {
  // pathLength 0: the issuer's root signs leaves only.
  const ca = options.ca ?? (await createTestCa('CN=vp-authorizer test issuer root CA,C=UT', { pathLength: 0, notAfter: new Date(Date.now() + 365 * 86_400_000) }));
  const leaf = await ca.issue({ subject: `CN=${options.commonName ?? 'vp-authorizer test issuer'},C=UT` });
  const issuerId = options.issuerId ?? 'https://issuer.test.invalid';
  const { did, kid } = didJwk(leaf.publicJwk);
  const signingKey = await importJWK(leaf.privateJwk as JWK, 'ES256');
  const sdJwt = new SDJwtVcInstance({
    signer: await ES256.getSigner(leaf.privateJwk),
    signAlg: 'ES256',
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
  });

  async function createStatusListToken(input: CreateStatusListTokenOptions): Promise<string> {
    const bits = input.bits ?? 1;
    return new SignJWT({ status_list: { bits, lst: encodeStatusList(input.statuses, bits) }, ...(input.ttlSeconds ? { ttl: input.ttlSeconds } : {}) })
      .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', x5c: [leaf.x5c] })
      .setSubject(input.uri)
      .setIssuedAt()
      .setExpirationTime(now() + (input.expiresInSeconds ?? 86_400))
      .sign(signingKey);
  }

  return {
    rootCertificatePem: ca.pem,
    leafCertificatePem: leaf.pem,
    x5c: [leaf.x5c],
    issuerId,
    did,
    publicJwk: leaf.publicJwk,

    async issueSdJwtVc(input) {
      const iat = now();
      const payload: Record<string, unknown> = {
        ...input.claims,
        iss: issuerId,
        iat,
        nbf: iat - 60,
        exp: iat + (input.expiresInSeconds ?? YEAR_S),
        vct: input.vct,
        ...(input.holderPublicJwk ? { cnf: { jwk: input.holderPublicJwk } } : {}),
        ...(input.status ? { status: { status_list: input.status } } : {}),
      };
      const compact = await sdJwt.issue(payload as never, disclosureFrame(input.disclosable ?? Object.keys(input.claims)) as never, {
        header: { typ: input.typ ?? 'dc+sd-jwt', x5c: input.x5c ?? [leaf.x5c] },
      });
      if (input.tamper !== 'issuer-signature') return compact;
      const [issuerJwt, ...rest] = compact.split('~');
      return [breakJwsSignature(issuerJwt!), ...rest].join('~');
    },

    async issueMdoc(input) {
      const validFrom = new Date(Date.now() - 60_000);
      let document = new Document(input.docType, mdocContext)
        .useDigestAlgorithm('SHA-256')
        .addValidityInfo({ signed: validFrom, validFrom, validUntil: new Date(Date.now() + (input.expiresInSeconds ?? YEAR_S) * 1000) })
        .addDeviceKeyInfo({ deviceKey: input.deviceKeyJwk as JWK });
      for (const [namespace, values] of Object.entries(input.namespaces)) document = document.addIssuerNameSpace(namespace, values);
      const signed: IssuerSignedDocument = await document.sign(
        { issuerPrivateKey: leaf.privateJwk as JWK, issuerCertificate: leaf.der, alg: 'ES256' },
        mdocContext,
      );
      if (input.tamper === 'issuer-signature') signed.issuerSigned.issuerAuth.signature = flipBit(signed.issuerSigned.issuerAuth.signature);
      const issuerSigned = signed.prepare().get('issuerSigned');
      return { docType: input.docType, issuerSigned: toBase64Url(cborEncode(issuerSigned)) };
    },

    async issueJwtVc(input) {
      const iat = now();
      const exp = iat + (input.expiresInSeconds ?? YEAR_S);
      const identity = input.issuerIdentity ?? 'did:jwk';
      const iss = identity === 'did:jwk' ? did : issuerId;
      const type = ['VerifiableCredential', ...(input.types ?? ['TestCredential'])];
      const credentialSubject = { id: input.subjectDid, ...input.claims };
      const credentialStatus = input.status
        ? { id: `${input.status.uri}#${input.status.idx}`, type: 'TokenStatusList', statusListIndex: input.status.idx, statusListCredential: input.status.uri }
        : undefined;
      const header = identity === 'did:jwk' ? { kid } : { x5c: [leaf.x5c] };
      let jwt: string;
      if (input.dataModel === '1.1') {
        const vc = { '@context': ['https://www.w3.org/2018/credentials/v1'], type, credentialSubject, ...(credentialStatus ? { credentialStatus } : {}) };
        jwt = await new SignJWT({ vc, nbf: iat - 60 })
          .setProtectedHeader({ alg: 'ES256', typ: 'JWT', ...header })
          .setIssuer(iss)
          .setSubject(input.subjectDid)
          .setIssuedAt(iat)
          .setExpirationTime(exp)
          .setJti(`urn:uuid:${randomUUID()}`)
          .sign(signingKey);
      } else {
        // VC-JOSE-COSE: the payload is the credential itself; validity lives in validFrom/validUntil.
        const credential = {
          '@context': ['https://www.w3.org/ns/credentials/v2'],
          id: `urn:uuid:${randomUUID()}`,
          type,
          issuer: iss,
          validFrom: new Date((iat - 60) * 1000).toISOString(),
          validUntil: new Date(exp * 1000).toISOString(),
          credentialSubject,
          ...(credentialStatus ? { credentialStatus } : {}),
        };
        jwt = await new SignJWT({ ...credential, iss, sub: input.subjectDid, iat })
          .setProtectedHeader({ alg: 'ES256', typ: 'vc+jwt', cty: 'vc', ...header })
          .sign(signingKey);
      }
      return input.tamper === 'issuer-signature' ? breakJwsSignature(jwt) : jwt;
    },

    statusList: {
      createStatusListToken,
      startStatusListServer: ({ expiresInSeconds, ttlSeconds, ...serverOptions } = {}) =>
        startStatusListServer({
          ...serverOptions,
          sign: (list) => createStatusListToken({ ...list, ...(expiresInSeconds ? { expiresInSeconds } : {}), ...(ttlSeconds ? { ttlSeconds } : {}) }),
        }),
    },
  };
}

/** Builds an @sd-jwt disclosure frame from top-level names and dot paths. */
function disclosureFrame(paths: string[]): Record<string, unknown> {
  const frame: Record<string, unknown> = {};
  for (const path of paths) {
    const segments = path.split('.');
    let node = frame;
    for (const segment of segments.slice(0, -1)) node = (node[segment] ??= {}) as Record<string, unknown>;
    ((node._sd ??= []) as string[]).push(segments.at(-1)!);
  }
  return frame;
}

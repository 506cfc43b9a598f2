import * as Bls12381Multikey from '@digitalbazaar/bls12-381-multikey';
import { cryptosuite as ecdsaRdfc2019 } from '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite';
import * as bbs2023 from '@digitalbazaar/bbs-2023-cryptosuite';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as ecdsaJcs2019 from '@digitalbazaar/ecdsa-jcs-2019-cryptosuite';
import * as EcdsaMultikey from '@digitalbazaar/ecdsa-multikey';
import * as ecdsaSd2023 from '@digitalbazaar/ecdsa-sd-2023-cryptosuite';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import * as eddsaJcs2022 from '@digitalbazaar/eddsa-jcs-2022-cryptosuite';
import { cryptosuite as eddsaRdfc2022 } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { readSharedJson } from './shared-testdata.js';

/**
 * Issues Data Integrity credentials and presentations with the Digital Bazaar libraries
 * (`@digitalbazaar/vc` and the suites' signing cryptosuites): an issuer independent of the
 * verifier under test. Contexts come from the published files in shared/testdata, not from the
 * verifier's bundled copies.
 */

const CONTEXT_FILES: Record<string, string> = {
  'https://www.w3.org/2018/credentials/v1': 'credentials-v1.jsonld',
  'https://www.w3.org/ns/credentials/v2': 'credentials-v2.jsonld',
  'https://www.w3.org/ns/credentials/examples/v2': 'credentials-examples-v2.jsonld',
  'https://w3id.org/security/data-integrity/v2': 'data-integrity-v2.jsonld',
  'https://w3id.org/security/multikey/v1': 'multikey-v1.jsonld',
  'https://www.w3.org/ns/credentials/status/v1': 'bitstring-status-list-v1.jsonld',
};

/** The issuing side's own loader: published contexts plus whatever a test adds. */
export function issuerDocumentLoader(extra: Record<string, unknown> = {}) {
  return async (url: string) => {
    if (extra[url] !== undefined) return { contextUrl: null, documentUrl: url, document: extra[url] };
    const file = CONTEXT_FILES[url];
    if (!file) throw new Error(`issuer loader: unknown URL ${url}`);
    return { contextUrl: null, documentUrl: url, document: readSharedJson('w3c-di', 'contexts', file) };
  };
}

export type SigningSuite = 'eddsa-rdfc-2022' | 'ecdsa-rdfc-2019' | 'eddsa-jcs-2022' | 'ecdsa-jcs-2019' | 'ecdsa-sd-2023' | 'bbs-2023';
export type KeyKind = 'Ed25519' | 'P-256' | 'P-384' | 'BLS12-381';

export interface DidKeyHolder {
  did: string;
  verificationMethod: string;
  kind: KeyKind;
  /** A Digital Bazaar key pair (Ed25519Multikey, EcdsaMultikey or Bls12381Multikey). */
  keyPair: { signer(): unknown; publicKeyMultibase: string };
}

/** A did:key with a fresh key of `kind`. */
export async function createDidKey(kind: KeyKind): Promise<DidKeyHolder> {
  const keyPair =
    kind === 'Ed25519'
      ? await Ed25519Multikey.generate()
      : kind === 'BLS12-381'
        ? await Bls12381Multikey.generateBbsKeyPair({ algorithm: Bls12381Multikey.ALGORITHMS.BBS_BLS12381_SHA256 })
        : await EcdsaMultikey.generate({ curve: kind });
  const did = `did:key:${keyPair.publicKeyMultibase}`;
  keyPair.controller = did;
  keyPair.id = `${did}#${keyPair.publicKeyMultibase}`;
  return { did, verificationMethod: keyPair.id, kind, keyPair };
}

/** A did:jwk for an Ed25519 or EC key: its verification method is `#0`. */
export async function createDidJwk(kind: 'Ed25519' | 'P-256' | 'P-384'): Promise<DidKeyHolder> {
  const keyPair = kind === 'Ed25519' ? await Ed25519Multikey.generate() : await EcdsaMultikey.generate({ curve: kind });
  const jwk = kind === 'Ed25519' ? await Ed25519Multikey.toJwk({ keyPair }) : await EcdsaMultikey.toJwk({ keyPair });
  const did = `did:jwk:${Buffer.from(JSON.stringify(jwk)).toString('base64url')}`;
  keyPair.controller = did;
  keyPair.id = `${did}#0`;
  return { did, verificationMethod: keyPair.id, kind, keyPair };
}

function signingCryptosuite(suite: SigningSuite, options: { mandatoryPointers?: string[] }) {
  switch (suite) {
    case 'eddsa-rdfc-2022':
      return eddsaRdfc2022;
    case 'ecdsa-rdfc-2019':
      return ecdsaRdfc2019;
    case 'eddsa-jcs-2022':
      return eddsaJcs2022.createSignCryptosuite();
    case 'ecdsa-jcs-2019':
      return ecdsaJcs2019.createSignCryptosuite();
    case 'ecdsa-sd-2023':
      return ecdsaSd2023.createSignCryptosuite({ mandatoryPointers: options.mandatoryPointers ?? ['/issuer'] });
    case 'bbs-2023':
      return bbs2023.createSignCryptosuite({ mandatoryPointers: options.mandatoryPointers ?? ['/issuer'] });
  }
}

/** A credential about `subject` (VCDM 2.0 unless the context says otherwise), issued by `issuer`. */
export function unsignedCredential(issuer: string, subject: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2'],
    type: ['VerifiableCredential', 'ExampleDegreeCredential'],
    issuer,
    validFrom: '2024-01-01T00:00:00Z',
    credentialSubject: subject,
    ...extra,
  };
}

/**
 * Issues `credential` with `suite`; the SD suites issue a base proof and derive a disclosure of
 * `selectivePointers` (the holder's step), which is what a wallet presents.
 */
export async function issueCredential(
  credential: Record<string, unknown>,
  issuer: DidKeyHolder,
  suite: SigningSuite,
  options: { mandatoryPointers?: string[]; selectivePointers?: string[]; loader?: ReturnType<typeof issuerDocumentLoader> } = {},
): Promise<Record<string, unknown>> {
  const documentLoader = options.loader ?? issuerDocumentLoader();
  const signed = await vc.issue({
    credential: structuredClone(credential),
    suite: new DataIntegrityProof({ signer: issuer.keyPair.signer(), cryptosuite: signingCryptosuite(suite, options) }),
    documentLoader,
  });
  if (suite !== 'ecdsa-sd-2023' && suite !== 'bbs-2023') return signed;
  const disclose = (suite === 'ecdsa-sd-2023' ? ecdsaSd2023 : bbs2023).createDiscloseCryptosuite({ selectivePointers: options.selectivePointers ?? ['/credentialSubject'] });
  return vc.derive({ verifiableCredential: signed, suite: new DataIntegrityProof({ cryptosuite: disclose }), documentLoader });
}

/** A presentation of `credentials` signed by `holder` for `challenge` (nonce) and `domain` (client id). */
export async function signPresentation(
  credentials: Record<string, unknown>[],
  holder: DidKeyHolder,
  options: { challenge: string; domain: string; suite?: 'eddsa-rdfc-2022' | 'ecdsa-rdfc-2019' | 'eddsa-jcs-2022' | 'ecdsa-jcs-2019'; holderMember?: string | null; loader?: ReturnType<typeof issuerDocumentLoader> },
): Promise<Record<string, unknown>> {
  const presentation: Record<string, unknown> = {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    type: ['VerifiablePresentation'],
    verifiableCredential: credentials,
  };
  if (options.holderMember !== null) presentation.holder = options.holderMember ?? holder.did;
  const suite = options.suite ?? (holder.kind === 'Ed25519' ? 'eddsa-rdfc-2022' : 'ecdsa-rdfc-2019');
  return vc.signPresentation({
    presentation,
    suite: new DataIntegrityProof({ signer: holder.keyPair.signer(), cryptosuite: signingCryptosuite(suite, {}) }),
    challenge: options.challenge,
    domain: options.domain,
    documentLoader: options.loader ?? issuerDocumentLoader(),
  });
}

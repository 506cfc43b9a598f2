import { createHash } from 'node:crypto';
import { ES256, digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { type JWK, SignJWT, decodeJwt, importJWK } from 'jose';
import { generateP256KeyPair } from './holder-key.js';
import type { ClaimPath, PresentationTamper, SdJwtWalletCredential } from './wallet-credential.js';

export interface SdJwtPresentationInput {
  credential: SdJwtWalletCredential;
  /** Claim paths to disclose; undefined = every disclosure. */
  disclose?: ClaimPath[];
  nonce: string;
  audience: string;
  /** Hashes of the transaction_data entries that name this credential's query. */
  transactionData?: { hashes: string[]; alg?: string };
  tamper?: PresentationTamper;
}

/**
 * Selects disclosures and appends a KB-JWT (`typ: kb+jwt`, aud, nonce, iat, sd_hash and
 * transaction_data_hashes) with @sd-jwt. Only a wrong `sd_hash` is built by hand: the library
 * always computes it.
 */
export async function presentSdJwt(input: SdJwtPresentationInput): Promise<string> {
  const { credential, tamper = {} } = input;
  const bindingKey = tamper.wrongHolderKey ? await generateP256KeyPair() : credential.holderKey;
  const sdJwt = new SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    ...(bindingKey ? { kbSigner: await ES256.getSigner(bindingKey.privateJwk), kbSignAlg: 'ES256' } : {}),
  });
  const frame = input.disclose ? presentationFrame(input.disclose) : undefined;
  if (tamper.omitHolderBinding) return sdJwt.present(credential.compact, frame as never);
  if (!bindingKey) throw new Error(`test wallet: credential ${credential.id} has no holder key; present it with tamper.omitHolderBinding`);

  const kbPayload: Record<string, unknown> = {
    iat: Math.floor(Date.now() / 1000) + (tamper.iatOffsetSeconds ?? 0),
    aud: tamper.audience ?? input.audience,
    nonce: tamper.nonce ?? input.nonce,
  };
  const hashes = tamper.transactionDataHashes ?? input.transactionData?.hashes;
  if (hashes) kbPayload.transaction_data_hashes = hashes;
  if (input.transactionData?.alg) kbPayload.transaction_data_hashes_alg = input.transactionData.alg;
  const presented = await sdJwt.present(credential.compact, frame as never, { kb: { payload: kbPayload as never } });
  if (tamper.sdHash !== 'wrong') return presented;

  const cut = presented.lastIndexOf('~') + 1;
  const kb = decodeJwt(presented.slice(cut));
  const wrongHash = createHash('sha256').update(`${presented.slice(0, cut)}tampered`).digest('base64url');
  const resigned = await new SignJWT({ ...kb, sd_hash: wrongHash })
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' })
    .sign(await importJWK(bindingKey.privateJwk as JWK, 'ES256'));
  return presented.slice(0, cut) + resigned;
}

/** DCQL claim paths → @sd-jwt presentation frame (`{address: {locality: true}}`). */
export function presentationFrame(paths: ClaimPath[]): Record<string, unknown> {
  const frame: Record<string, unknown> = {};
  for (const path of paths) {
    let node = frame;
    path.forEach((segment, index) => {
      // null selects every array element: disclose the array claim itself.
      if (segment === null) return;
      const key = String(segment);
      const last = index === path.length - 1 || path[index + 1] === null;
      if (last) node[key] = true;
      else if (node[key] !== true) node = (node[key] ??= {}) as Record<string, unknown>;
    });
  }
  return frame;
}

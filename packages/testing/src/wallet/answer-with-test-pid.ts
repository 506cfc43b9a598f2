import type { ReceivedRequest } from './received-request.js';
import type { TestIssuer } from './test-issuer.js';
import { createTestWallet, type SubmitResult } from './test-wallet.js';

export interface AnswerWithTestPidOptions {
  /** The authorizer's public base URL: its request-signing trust anchor is read from `/instances/oid4vp-trust-anchor` below it. */
  authorizerUrl: string;
  /** The instance's API key (the trust anchor route is an RP route). */
  apiKey: string;
  /** Who issued the PID the wallet holds (an issuer the authorizer does not trust makes a refusal). */
  issuer: TestIssuer;
  /** The PID's claims (default: given_name Erika, family_name Mustermann). */
  claims?: Record<string, unknown>;
}

/**
 * The whole wallet side of a flow for an app built around the authorizer: a new test wallet holding
 * one SD-JWT VC PID (`urn:eudi:pid:1`) opens `authorizeUrl`, checks the request object against the
 * authorizer's own trust anchor and posts its response.
 */
export async function answerWithTestPid(authorizeUrl: string, options: AnswerWithTestPidOptions): Promise<{ request: ReceivedRequest; answer: SubmitResult }> {
  const anchor = await fetch(`${options.authorizerUrl}/instances/oid4vp-trust-anchor`, { headers: { authorization: `Bearer ${options.apiKey}` } });
  if (anchor.status !== 200) throw new Error(`GET ${options.authorizerUrl}/instances/oid4vp-trust-anchor answered ${anchor.status}`);
  const { certificate } = (await anchor.json()) as { certificate: string };
  const wallet = await createTestWallet();
  await wallet.addSdJwtVc(options.issuer, { vct: 'urn:eudi:pid:1', claims: options.claims ?? { given_name: 'Erika', family_name: 'Mustermann' } });
  const request = await wallet.receive(authorizeUrl, { verifierTrustAnchors: [certificate] });
  return { request, answer: await wallet.respond(request) };
}

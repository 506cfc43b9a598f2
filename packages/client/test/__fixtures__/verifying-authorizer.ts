// A real authorizer on 127.0.0.1 that verifies what wallets present (@vp-authorizer/local: issuer
// signature, key binding, nonce and audience, trusted issuer), the test issuer it trusts, a
// wallet holding a PID from that issuer, and the client under test, which reaches it only over HTTP.
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { TEST_API_KEY, createTestIssuer, createTestWallet, startPassThroughAuthorizer, testSigningKey, type PassThroughAuthorizerOptions, type PassThroughAuthorizerServer, type TestIssuer, type TestWallet } from '@vp-authorizer/testing';
import { type AuthorizerClient, type CreateAuthorizationBody, createAuthorizerClient } from '../../src/index.js';

export const PID_VCT = 'urn:eudi:pid:1';

export const pidRequest = (): CreateAuthorizationBody => ({
  responseMode: 'direct_post.jwt',
  query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] }] } },
});

export interface VerifyingAuthorizer {
  server: PassThroughAuthorizerServer;
  /** The client under test, with the key of instance `main`. */
  client: AuthorizerClient;
  issuer: TestIssuer;
  verifierRootPem: string;
  /** A wallet holding one PID of the trusted issuer. */
  wallet(): Promise<TestWallet>;
}

export async function startVerifyingAuthorizer(options: PassThroughAuthorizerOptions = {}): Promise<VerifyingAuthorizer> {
  const issuer = await createTestIssuer();
  const server = await startPassThroughAuthorizer({
    ...options,
    instance: {
      validator: localValidator({ trustedIssuers: [issuer.rootCertificatePem] }),
      verifier: localVerifier({ trustAnchors: [issuer.rootCertificatePem] }),
      ...options.instance,
    },
  });
  return {
    server,
    client: createAuthorizerClient({ baseUrl: server.base, apiKey: TEST_API_KEY }),
    issuer,
    verifierRootPem: (await testSigningKey()).rootCertificatePem,
    async wallet() {
      const wallet = await createTestWallet();
      await wallet.addSdJwtVc(issuer, { vct: PID_VCT, claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1984-01-26' } });
      return wallet;
    },
  };
}

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { RequestObjectFetchError } from '../wallet/receive-request.js';
import { createTestWallet } from '../wallet/test-wallet.js';
import { issueCredentialsFor } from './credentials-for-query.js';
import { TEST_ISSUER_FILES, loadTestIssuer, saveTestIssuer } from './persistent-test-issuer.js';

/** Where a command writes its lines. */
export interface DevCommandOutput {
  out(line: string): void;
  err(line: string): void;
}

const DEFAULT_DIR = '.vp-dev';

export const DEV_USAGE = `Development commands (from @vp-authorizer/testing; never for production):

  vp-authorizer issuer init [--dir ${DEFAULT_DIR}] [--force]
      Makes a test issuer root and saves it in the directory (${TEST_ISSUER_FILES.rootCertificate}, and
      ${TEST_ISSUER_FILES.rootKey} readable by you only), so that it survives restarts. Trust
      ${TEST_ISSUER_FILES.rootCertificate} in your authorizer (ISSUER_ROOT_PEM_FILE in the examples).

  vp-authorizer wallet <authorizeUrl> [--dir ${DEFAULT_DIR}] [--verifier-root <file.pem>] [--decline] [--timeout-ms 10000]
      Answers an authorization request (openid4vp://… or https://… with request_uri) as a wallet
      would: fetches and checks the request object, issues credentials shaped to its DCQL query
      from the saved test issuer, presents them (encrypted for direct_post.jwt) and prints what it
      presented and what the verifier answered (the redirect_uri with its response_code).
        --verifier-root <file.pem>  check the request's signing chain against this root (the
                                    authorizer's signing.trustAnchor); without it, any signer is accepted
        --decline                   answer access_denied instead of presenting
        --timeout-ms <ms>           give up on the request_uri, and on the response_uri, after this
                                    long each (default 10000); each answer is read up to 1 MiB
      It follows the request_uri (and posts to the response_uri) of the URL it is given, wherever
      they point: a development tool, to run only on URLs you trust.
`;

class UsageError extends Error {}

/** `vp-authorizer issuer …` and `vp-authorizer wallet …`; `argv` starts with the command name. Returns the exit code. */
export async function runDevCommand(argv: string[], io: DevCommandOutput): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'issuer') return await issuerCommand(rest, io);
    if (command === 'wallet') return await walletCommand(rest, io);
    throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${DEV_USAGE}`);
      return 2;
    }
    io.err(`vp-authorizer ${command}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function issuerCommand(argv: string[], io: DevCommandOutput): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { dir: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  if (values.help) {
    io.out(DEV_USAGE);
    return 0;
  }
  if (positionals[0] !== 'init' || positionals.length !== 1) throw new UsageError('usage: vp-authorizer issuer init [--dir <dir>] [--force]');
  const saved = await saveTestIssuer(values.dir ?? DEFAULT_DIR, { force: values.force === true });
  const root = relative(process.cwd(), saved.rootCertificatePath) || saved.rootCertificatePath;
  io.out(
    [
      `Saved a test issuer in ${saved.dir}:`,
      `  ${TEST_ISSUER_FILES.rootCertificate}      the root to trust`,
      `  ${TEST_ISSUER_FILES.rootKey}  its private key (0600)`,
      '',
      'Trust it in the authorizer:',
      `  examples:  ISSUER_ROOT_PEM_FILE=${root}`,
      `  code:      localValidator({ trustedIssuers: [readFileSync('${root}', 'utf8')] }) and localVerifier({ trustAnchors: [same] })`,
      `Then answer a request with: vp-authorizer wallet '<authorizeUrl>'${values.dir ? ` --dir ${values.dir}` : ''}`,
    ].join('\n'),
  );
  return 0;
}

async function walletCommand(argv: string[], io: DevCommandOutput): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { dir: { type: 'string' }, 'verifier-root': { type: 'string' }, decline: { type: 'boolean' }, 'timeout-ms': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(DEV_USAGE);
    return 0;
  }
  const authorizeUrl = positionals[0]?.trim();
  if (positionals.length !== 1 || !authorizeUrl) throw new UsageError('usage: vp-authorizer wallet <authorizeUrl> (quote it: it holds & characters)');
  let url: URL;
  try {
    url = new URL(authorizeUrl);
  } catch {
    throw new UsageError(`not a URL: ${JSON.stringify(authorizeUrl.slice(0, 80))}; pass the authorizeUrl the authorizer answered (openid4vp://?client_id=…&request_uri=…)`);
  }
  if (!url.searchParams.get('request_uri')) throw new UsageError('the URL has no request_uri: pass the authorizeUrl the authorizer answered (openid4vp://?client_id=…&request_uri=…)');
  const timeoutMs = values['timeout-ms'] === undefined ? undefined : Number(values['timeout-ms']);
  if (timeoutMs !== undefined && (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)) throw new UsageError(`--timeout-ms must be a positive integer (milliseconds); got ${JSON.stringify(values['timeout-ms'])}`);
  const verifierTrustAnchors = values['verifier-root'] ? [readFileSync(values['verifier-root'], 'utf8')] : undefined;

  const issuer = await loadTestIssuer(values.dir ?? DEFAULT_DIR);
  const wallet = await createTestWallet();
  let request;
  try {
    request = await wallet.receive(authorizeUrl, { ...(verifierTrustAnchors ? { verifierTrustAnchors } : {}), ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  } catch (error) {
    if (error instanceof RequestObjectFetchError) throw new Error(`the verifier answered ${error.status} for the request object: ${error.body.slice(0, 300)}`);
    throw error;
  }
  io.out(`Request from ${request.clientId ?? '(no client_id)'}: response_mode ${request.responseMode}, response_uri ${request.responseUri ?? '(none)'}`);
  io.out(verifierTrustAnchors ? `  signature checked against ${values['verifier-root']}` : '  signature not checked against a root (pass --verifier-root <file.pem> to check it)');

  let prepared;
  if (values.decline) {
    prepared = { responseMode: request.responseMode, responseUri: request.responseUri!, payload: {}, form: { error: 'access_denied', ...(request.state ? { state: request.state } : {}) } };
    io.out('Declined (access_denied).');
  } else {
    const minted = await issueCredentialsFor(request, issuer, wallet);
    prepared = await wallet.createResponse(request);
    io.out('Presented:');
    for (const credential of minted) io.out(`  ${credential.queryId}: ${credential.format} ${credential.type}${credential.claims.length ? ` (${credential.claims.join(', ')})` : ''}`);
  }
  const answer = await wallet.submit(prepared, timeoutMs === undefined ? {} : { timeoutMs });
  const body = typeof answer.body === 'object' && answer.body !== null ? (answer.body as Record<string, unknown>) : {};
  io.out(`Verifier answered ${answer.status}${typeof body.error === 'string' ? `: ${body.error}${typeof body.error_description === 'string' ? ` (${body.error_description})` : ''}` : ''}`);
  if (typeof body.redirect_uri === 'string') io.out(`Redirect: ${body.redirect_uri}`);
  return answer.status === 200 ? 0 : 1;
}

import { AuthorizerError } from '../errors/authorizer-error.js';
import { assertAcceptsResponse } from '../authorization/accept-response.js';
import { commit, loadAnyInstance } from '../authorization/transitions.js';
import { checkWalletMetadata, parseWalletMetadataParam } from '../request/haip-rules.js';
import { signRequestObject } from '../request/request-object.js';
import { acceptedAlgorithms } from '../request/accepted-algorithms.js';
import { instanceOf, type AuthorizerContext } from '../runtime/authorizer-context.js';

export interface RequestObjectParams {
  /** JSON string as posted by the wallet (request_uri_method=post). */
  walletMetadata?: string;
  walletNonce?: string;
}

/**
 * Serve the signed request object. It may be fetched more than once (wallets retry); the first
 * fetch moves `created` → `pending`.
 */
export async function getRequestObject(ctx: AuthorizerContext, id: string, params: RequestObjectParams): Promise<string> {
  const record = await loadAnyInstance(ctx, id);
  // DC API requests are handed out in the creation response; there is no request_uri for them.
  if (record.request.responseMode.startsWith('dc_api')) throw new AuthorizerError('authorization.not_found');
  assertAcceptsResponse(record);
  if (params.walletNonce !== undefined && !/^[\x21-\x7e]{1,256}$/.test(params.walletNonce)) {
    throw new AuthorizerError('request.invalid_body', { message: 'wallet_nonce must be 1-256 printable characters.' });
  }
  const instance = instanceOf(ctx, record.instanceId);
  const walletMetadata = parseWalletMetadataParam(params.walletMetadata);
  const algorithms = acceptedAlgorithms(instance.verifier, record.request.profile);
  if (walletMetadata) {
    const query = record.request.query;
    const formats = query.type === 'DCQL' ? [...new Set(query.dcql.credentials.map((c) => c.format))] : [];
    checkWalletMetadata(walletMetadata, {
      haip: record.request.profile === 'haip',
      clientIdPrefix: instance.config.openId4vp.clientIdPrefix,
      requireClientIdPrefix: instance.config.openId4vp.requireWalletClientIdPrefix,
      formats,
      algorithms,
    });
  }
  const jwt = await signRequestObject({
    record,
    signing: await instance.signing(),
    config: instance.config,
    ...(walletMetadata ? { walletMetadata } : {}),
    ...(params.walletNonce !== undefined ? { walletNonce: params.walletNonce } : {}),
    now: ctx.clock.now(),
    algorithms,
  });
  // A lost race here only means another fetch already moved it to pending.
  if (record.status === 'created') await commit(ctx, record, { status: 'pending' });
  return jwt;
}

import { Body, Controller, HttpCode, Inject, Param, Post, UseFilters } from '@nestjs/common';
import type { Authorizer } from '@vp-authorizer/core';
import { AuthorizerErrorFilter } from './authorizer-error.filter.js';
import { AUTHORIZER } from './authorizer.module.js';

/** The instance authorizerFromConfig builds from the environment. */
const INSTANCE = 'main';

/**
 * The app's own routes, calling the injected authorizer in process (no API key, no HTTP hop): start
 * a verification of a PID's given name, then resolve the response code the wallet's redirect
 * brought back. Parameters are injected by explicit tokens, so no decorator metadata is needed.
 */
@Controller('verifications')
@UseFilters(AuthorizerErrorFilter)
export class VerificationsController {
  constructor(@Inject(AUTHORIZER) private readonly authorizer: Authorizer) {}

  @Post()
  async start(): Promise<{ authorizationId: string; authorizeUrl: string }> {
    const created = await this.authorizer.createAuthorization(INSTANCE, {
      responseMode: 'direct_post.jwt',
      query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } },
    });
    // A direct_post.jwt create answers with the link a wallet opens (a dc_api one with a DC API request instead).
    if (!('authorizeUrl' in created)) throw new Error('a direct_post.jwt authorization has an authorizeUrl');
    return { authorizationId: created.authorizationId, authorizeUrl: created.authorizeUrl };
  }

  /** The id kept in the user's session goes with the code: a code issued for another authorization is refused. */
  @Post(':id/resolve')
  @HttpCode(200)
  async resolve(@Param('id') id: string, @Body() body: { response_code?: unknown }): Promise<{ status: string; givenName?: unknown }> {
    const resolved = await this.authorizer.resolveResponseCode(INSTANCE, String(body?.response_code ?? ''), { expectedAuthorizationId: id });
    if (resolved.status !== 'authorized') return { status: resolved.status };
    const { credentials } = await this.authorizer.getCredentials(INSTANCE, id);
    return { status: resolved.status, givenName: credentials[0]?.claims.given_name };
  }
}

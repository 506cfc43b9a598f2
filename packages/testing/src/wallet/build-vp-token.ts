import { randomUUID } from 'node:crypto';
import { presentJwtVc } from './jwt-vp.js';
import { requestedPaths } from './match-credentials.js';
import { presentMdoc } from './mdoc-presentation.js';
import { type ReceivedRequest, expectedAudience, isDcApiRequest } from './received-request.js';
import { presentSdJwt } from './sd-jwt-presentation.js';
import type { HandoverInput } from './session-transcript.js';
import { transactionDataHashes } from './transaction-data-hashes.js';
import type { Presentation } from './wallet-credential.js';

/** Builds one presentation string for a query id, bound to the request. */
async function buildPresentation(request: ReceivedRequest, queryId: string, presentation: Presentation, encryptionJwk: JsonWebKey | null): Promise<string> {
  // An mdoc given without `disclose` discloses what its query asks for (verifiers refuse more, OpenID4VP 1.0 section 6.4).
  const query = request.dcqlQuery?.credentials.find((c) => c.id === queryId);
  const mdocDisclose = presentation.disclose ?? (query ? requestedPaths(query) : undefined);
  const { credential, tamper = {} } = presentation;
  const audience = expectedAudience(request);
  switch (credential.format) {
    case 'dc+sd-jwt': {
      const transactionData = transactionDataHashes(request.transactionData, queryId);
      return presentSdJwt({
        credential,
        ...(presentation.disclose ? { disclose: presentation.disclose } : {}),
        nonce: request.nonce,
        audience,
        ...(transactionData ? { transactionData } : {}),
        tamper,
      });
    }
    case 'mso_mdoc': {
      const nonce = tamper.nonce ?? request.nonce;
      let handover: HandoverInput;
      if (isDcApiRequest(request)) {
        handover = { kind: 'dc_api', origin: tamper.audience ?? request.origin!, nonce, encryptionJwk };
      } else {
        if (!request.clientId || !request.responseUri) throw new Error('test wallet: an mdoc redirect response needs client_id and response_uri');
        handover = { kind: 'redirect', clientId: tamper.audience ?? request.clientId, nonce, responseUri: request.responseUri, encryptionJwk };
      }
      return presentMdoc({ credential, ...(mdocDisclose ? { disclose: mdocDisclose } : {}), handover, wrongDeviceKey: tamper.wrongHolderKey ?? false });
    }
    case 'jwt_vc_json':
      return presentJwtVc({ credential, nonce: request.nonce, audience, tamper });
  }
}

/** DCQL `vp_token`: `{queryId: [presentation, …]}`. */
export async function buildDcqlVpToken(
  request: ReceivedRequest,
  presentations: Record<string, Presentation[]>,
  encryptionJwk: JsonWebKey | null,
): Promise<Record<string, string[]>> {
  const entries = await Promise.all(
    Object.entries(presentations).map(async ([queryId, list]) => [queryId, await Promise.all(list.map((p) => buildPresentation(request, queryId, p, encryptionJwk)))] as const),
  );
  return Object.fromEntries(entries);
}

/**
 * Presentation Exchange `vp_token` (one presentation, or an array when there are several) and
 * its `presentation_submission`. mdoc under PE needs the pre-1.0 handover and is not offered.
 */
export async function buildPexVpToken(
  request: ReceivedRequest,
  presentations: Record<string, Presentation[]>,
): Promise<{ vpToken: string | string[]; presentationSubmission: Record<string, unknown> }> {
  const definition = request.presentationDefinition!;
  const flat = Object.entries(presentations).flatMap(([descriptorId, list]) => list.map((presentation) => ({ descriptorId, presentation })));
  const single = flat.length === 1;
  const vps: string[] = [];
  const descriptorMap: Record<string, unknown>[] = [];
  for (const [index, { descriptorId, presentation }] of flat.entries()) {
    const { credential } = presentation;
    if (credential.format === 'mso_mdoc') throw new Error('test wallet: mdoc over Presentation Exchange is not supported');
    vps.push(await buildPresentation(request, descriptorId, presentation, null));
    const path = single ? '$' : `$[${index}]`;
    const descriptor = definition.input_descriptors.find((d) => d.id === descriptorId);
    const formats = Object.keys(descriptor?.format ?? definition.format ?? {});
    if (credential.format === 'dc+sd-jwt') {
      descriptorMap.push({ id: descriptorId, format: formats.find((f) => f.includes('sd-jwt')) ?? 'vc+sd-jwt', path });
    } else if (presentation.tamper?.omitHolderBinding) {
      descriptorMap.push({ id: descriptorId, format: 'jwt_vc_json', path });
    } else {
      const nestedPath = credential.dataModel === '1.1' ? `${path}.vp.verifiableCredential[0]` : `${path}.verifiableCredential[0]`;
      descriptorMap.push({
        id: descriptorId,
        format: formats.includes('jwt_vp') && !formats.includes('jwt_vp_json') ? 'jwt_vp' : 'jwt_vp_json',
        path,
        path_nested: { id: descriptorId, format: 'jwt_vc_json', path: nestedPath },
      });
    }
  }
  return {
    vpToken: single ? vps[0]! : vps,
    presentationSubmission: { id: randomUUID(), definition_id: definition.id, descriptor_map: descriptorMap },
  };
}

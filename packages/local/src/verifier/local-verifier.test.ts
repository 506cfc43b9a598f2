import type { ParsedLdp, ParsedMdoc, PolicyResult } from '@vp-authorizer/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMdocFixture, type MdocFixture } from '../__fixtures__/mdoc-issuer.js';
import { createSdJwtFixture, type SdJwtFixture } from '../__fixtures__/sd-jwt-issuer.js';
import { createTestCa, type TestCa } from '@vp-authorizer/testing';
import { sdJwtPresentation, signal, verifyInput } from '../__fixtures__/verify-input.js';
import { localVerifier } from './local-verifier.js';
import { decodeCbor, encodeCbor } from './mdoc/mdoc-cbor.js';
import { sessionTranscriptBytes } from '@vp-authorizer/core/formats';

const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.path.join('/')}:${r.error!.code}`);

let ca: TestCa;
let sd: SdJwtFixture;
let mdoc: MdocFixture;

beforeAll(async () => {
  ca = await createTestCa();
  sd = await createSdJwtFixture(ca);
  mdoc = await createMdocFixture(ca);
});

const mdocPresentation = (raw: string, queryId = 'mdl'): ParsedMdoc => ({ kind: 'mdoc', path: [queryId, 0], queryId, index: 0, format: 'mso_mdoc', raw, version: '1.0', status: 0, documents: [] });

describe('localVerifier', () => {
  it('verifies several presentations of different formats in one call, each under its own path', async () => {
    const input = verifyInput([]);
    const ldp: ParsedLdp = { kind: 'ldp', path: ['ldp', 0], queryId: 'ldp', index: 0, format: 'ldp_vc', raw: {} };
    input.presentations = [sdJwtPresentation(await sd.present(await sd.issue())), mdocPresentation(await mdoc.deviceResponse({ transcript: sessionTranscriptBytes(input.sessionTranscript) })), ldp];
    const results = await localVerifier({ trustAnchors: [ca.pem] }).verify(input, { signal: signal() });
    // An empty object is neither a presentation nor a credential.
    expect(errorsOf(results)).toEqual(['ldp/0:format.malformed']);
    expect(new Set(results.map((r) => r.path.slice(0, 2).join('/')))).toEqual(new Set(['pid/0', 'mdl/0', 'ldp/0']));
  });

  it('verifies nothing of a presentation whose format is unknown or does not decode to its kind, and says so', async () => {
    const input = verifyInput([]);
    const genuine = sdJwtPresentation(await sd.present(await sd.issue()));
    // The same SD-JWT labelled with an unregistered format, and labelled as an mdoc.
    input.presentations = [
      { ...genuine, path: ['unknown', 0], queryId: 'unknown', format: 'x_sd_jwt' },
      { ...genuine, path: ['mislabelled', 0], queryId: 'mislabelled', format: 'mso_mdoc' },
      { ...genuine, format: 'vc+sd-jwt' },
    ];
    const results = await localVerifier({ trustAnchors: [ca.pem] }).verify(input, { signal: signal() });
    expect(errorsOf(results)).toEqual(['unknown/0:format.unsupported', 'mislabelled/0:format.unsupported']);
    // The pre-1.0 name of SD-JWT VC is the same format: verified as one.
    expect(results.filter((r) => r.path[0] === 'pid').length).toBeGreaterThan(0);
  });

  it('fixes its trust anchors at construction: editing the array passed in changes nothing', async () => {
    const otherCa = await createTestCa('CN=Another Root');
    const anchors = [ca.pem];
    const verifier = localVerifier({ trustAnchors: anchors });
    anchors[0] = otherCa.pem;
    const input = verifyInput([]);
    input.presentations = [sdJwtPresentation(await sd.present(await sd.issue()))];
    expect(errorsOf(await verifier.verify(input, { signal: signal() }))).toEqual([]);
  });

  it('requires exactly one document per DeviceResponse under HAIP', async () => {
    const input = verifyInput([], { profile: 'haip' });
    const raw = await mdoc.deviceResponse({ transcript: sessionTranscriptBytes(input.sessionTranscript) });
    const response = decodeCbor(Buffer.from(raw, 'base64url')) as Map<string, unknown[]>;
    response.set('documents', [...response.get('documents')!, ...response.get('documents')!]);
    const two = Buffer.from(encodeCbor(response)).toString('base64url');
    input.presentations = [mdocPresentation(two)];
    const verifier = localVerifier({ trustAnchors: [ca.pem] });
    expect(errorsOf(await verifier.verify(input, { signal: signal() }))).toEqual(['mdl/0:mdoc.document_count']);
    // Outside HAIP both documents are verified, each under its document index.
    const results = await verifier.verify({ ...input, profile: undefined }, { signal: signal() });
    expect(errorsOf(results)).toEqual([]);
    expect(new Set(results.map((r) => r.path.join('/')))).toEqual(new Set(['mdl/0/0', 'mdl/0/1']));
  });

  it('fails an mdoc addressed by transaction data (no binding mechanism for mdoc in OpenID4VP 1.0)', async () => {
    const entry = Buffer.from(JSON.stringify({ type: 't', credential_ids: ['mdl'] })).toString('base64url');
    const input = verifyInput([], { transactionData: [entry] });
    input.presentations = [mdocPresentation(await mdoc.deviceResponse({ transcript: sessionTranscriptBytes(input.sessionTranscript) }))];
    expect(errorsOf(await localVerifier({ trustAnchors: [ca.pem] }).verify(input, { signal: signal() }))).toEqual(['mdl/0:holder_binding.transaction_data_unsupported']);
  });
});

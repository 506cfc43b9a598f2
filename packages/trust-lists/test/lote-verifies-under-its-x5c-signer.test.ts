import { createListSigner, createTestCa, type ListSigner, type TestCa } from '@vp-authorizer/testing';
import { CompactSign, importPKCS8 } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { trustLists } from '../src/index.js';
import { SERVICE_TYPES } from '../src/vouching.js';
import { tempFolder } from './__fixtures__/temp-files.js';

const pid = { purpose: 'credential' as const, credentialTypes: ['urn:eudi:pid:1'] };

/** A TS 119 602 PID-provider LoTE in its JSON binding (no ServiceStatus: being listed is being recognised). */
function pidProvidersLote(providers: TestCa[], nextUpdate = new Date(Date.now() + 7 * 86_400_000)) {
  return {
    LoTE: {
      ListAndSchemeInformation: {
        LoTEVersionIdentifier: 1,
        LoTESequenceNumber: 3,
        LoTEType: 'http://uri.etsi.org/19602/LoTEType/EUPIDProvidersList',
        SchemeOperatorName: [{ lang: 'en', value: 'Test operator' }],
        SchemeTerritory: 'EU',
        ListIssueDateTime: new Date(Date.now() - 3_600_000).toISOString(),
        NextUpdate: nextUpdate.toISOString(),
      },
      TrustedEntitiesList: providers.map((p, i) => ({
        TrustedEntityInformation: { TEName: [{ lang: 'en', value: `PID provider ${i}` }] },
        TrustedEntityServices: [{ ServiceInformation: { ServiceTypeIdentifier: SERVICE_TYPES.pidIssuance, ServiceName: [{ lang: 'en', value: 'PID issuance' }], ServiceDigitalIdentity: { X509Certificates: [{ val: p.x5c }] } } }],
      })),
    },
  };
}

/** JAdES baseline B compact JWS: x5c, sigT critical. Signed with jose, not the code under test. */
async function signLote(payload: unknown, signer: ListSigner): Promise<string> {
  const key = await importPKCS8(signer.privatePem, 'ES256');
  return new CompactSign(Buffer.from(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', typ: 'JOSE', x5c: [signer.base64], sigT: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), crit: ['sigT'] })
    .sign(key, { crit: { sigT: true } });
}

describe('a List of Trusted Entities (TS 119 602, JWS)', () => {
  let signer: ListSigner;
  let provider: TestCa;
  beforeAll(async () => {
    signer = await createListSigner('LoTE signer', 'ec');
    provider = await createTestCa('CN=LoTE PID Provider');
  });

  it('verifies under the configured signer and vouches for PIDs with its providers', async () => {
    const path = tempFolder().write('pid.jws', await signLote(pidProvidersLote([provider]), signer));
    const lists = trustLists({ sources: [path], signers: [signer.pem] });
    await lists.ready();
    expect(lists.status()[0]).toMatchObject({ kind: 'lote', state: 'ready', sequence: 3, anchors: 1 });
    expect((await lists.issuerAnchors({ ...pid, top: new Uint8Array(provider.der) })).anchors).toHaveLength(1);
  });

  it('refuses a LoTE whose payload was changed after signing', async () => {
    const [h, , s] = (await signLote(pidProvidersLote([provider]), signer)).split('.');
    const other = Buffer.from(JSON.stringify(pidProvidersLote([provider, await createTestCa('CN=Intruder')]))).toString('base64url');
    const lists = trustLists({ sources: [`lote:${tempFolder().write('changed.jws', `${h}.${other}.${s}`)}`], signers: [signer.pem] });
    await lists.ready();
    expect(lists.status()[0]?.error?.code).toBe('trust_list.signature_invalid');
  });

  it('refuses a LoTE whose x5c does not lead to a configured signer', async () => {
    const stranger = await createListSigner('Stranger', 'ec');
    const lists = trustLists({ sources: [tempFolder().write('stranger.jws', await signLote(pidProvidersLote([provider]), stranger))], signers: [signer.pem] });
    await lists.ready();
    expect(lists.status()[0]?.error?.code).toBe('trust_list.unknown_signer');
  });

  it('refuses an unknown critical header', async () => {
    const key = await importPKCS8(signer.privatePem, 'ES256');
    const jws = await new CompactSign(Buffer.from(JSON.stringify(pidProvidersLote([provider])))).setProtectedHeader({ alg: 'ES256', x5c: [signer.base64], zzz: 1, crit: ['zzz'] }).sign(key, { crit: { zzz: true } });
    const lists = trustLists({ sources: [tempFolder().write('crit.jws', jws)], signers: [signer.pem] });
    await lists.ready();
    expect(lists.status()[0]?.error?.code).toBe('trust_list.signature_invalid');
  });
});

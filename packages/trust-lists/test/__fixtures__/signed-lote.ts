import type { ListSigner } from '@vp-authorizer/testing';
import { CompactSign, importPKCS8 } from 'jose';

/** One service of a test LoTE: its type, the DIDs its digital identity names (`OtherIds`), and optionally a status. */
export interface LoteServiceSpec {
  type: string;
  otherIds: string[];
  status?: { uri: string; since: Date };
}

/** A TS 119 602 LoTE in its JSON binding, one trusted entity per service. */
export function loteDocument(services: LoteServiceSpec[], nextUpdate = new Date(Date.now() + 7 * 86_400_000)) {
  return {
    LoTE: {
      ListAndSchemeInformation: {
        LoTEVersionIdentifier: 1,
        LoTESequenceNumber: 1,
        LoTEType: 'http://uri.etsi.org/19602/LoTEType/EUPubEAAProvidersList',
        SchemeOperatorName: [{ lang: 'en', value: 'Test operator' }],
        SchemeTerritory: 'EU',
        ListIssueDateTime: new Date(Date.now() - 3_600_000).toISOString(),
        NextUpdate: nextUpdate.toISOString(),
      },
      TrustedEntitiesList: services.map((s, i) => ({
        TrustedEntityInformation: { TEName: [{ lang: 'en', value: `Entity ${i}` }] },
        TrustedEntityServices: [
          {
            ServiceInformation: {
              ServiceTypeIdentifier: s.type,
              ServiceName: [{ lang: 'en', value: `Service ${i}` }],
              ServiceDigitalIdentity: { OtherIds: s.otherIds },
              ...(s.status ? { ServiceStatus: s.status.uri, StatusStartingTime: s.status.since.toISOString() } : {}),
            },
          },
        ],
      })),
    },
  };
}

/** JAdES baseline B compact JWS (x5c, critical sigT), signed with jose rather than the code under test. */
export async function signLote(payload: unknown, signer: ListSigner): Promise<string> {
  const key = await importPKCS8(signer.privatePem, 'ES256');
  return new CompactSign(Buffer.from(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', typ: 'JOSE', x5c: [signer.base64], sigT: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), crit: ['sigT'] })
    .sign(key, { crit: { sigT: true } });
}

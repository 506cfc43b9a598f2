import { X509Certificate } from 'node:crypto';
import { Decoder } from 'cbor-x';
import { ConfigError } from '@vp-authorizer/core';
import { buildSignedList, createListSigner } from '@vp-authorizer/testing';
import { describe, expect, it } from 'vitest';
import { detectKind, trustLists } from '../src/index.js';
import { sharedTestdata } from './__fixtures__/shared-testdata.js';
import { tempFolder } from './__fixtures__/temp-files.js';

const configError = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

describe('trustLists options', () => {
  it('refuses a configuration without signers, naming the fix', () => {
    expect(configError(() => trustLists({ sources: ['lotl:https://ec.europa.eu/tools/lotl/eu-lotl.xml'], signers: [] })).message).toContain('signers must hold at least one PEM certificate');
  });

  it('refuses a signer that is not a PEM certificate, naming its index', () => {
    expect(JSON.stringify(configError(() => trustLists({ sources: ['/tmp/x.xml'], signers: ['not a certificate'] })))).toContain('signers.0');
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    expect(() => trustLists({ sources: ['/tmp/x.xml'], signers: [pem] })).toThrow(ConfigError);
  });

  it('refuses http sources, inverted refresh bounds and an unknown kind', async () => {
    const signer = await createListSigner('options');
    expect(JSON.stringify(configError(() => trustLists({ sources: ['http://tl.example/list.xml'], signers: [signer.pem] })))).toContain('https only');
    expect(JSON.stringify(configError(() => trustLists({ sources: ['/tmp/x.xml'], signers: [signer.pem], refresh: { minIntervalMs: 10_000, maxIntervalMs: 1_000 } })))).toContain('minIntervalMs');
    expect(() => trustLists({ sources: [{ location: '/tmp/x.xml', kind: 'pdf' as never }], signers: [signer.pem] })).toThrow(ConfigError);
  });

  it('starts nothing at construction: no load until start(), ready() or a query', async () => {
    const signer = await createListSigner('lazy');
    const lists = trustLists({ sources: ['/nonexistent/list.xml'], signers: [signer.pem] });
    expect(lists.status()[0]).toMatchObject({ state: 'loading', anchors: 0 });
    await lists.ready();
    expect(lists.status()[0]).toMatchObject({ state: 'failed', error: { code: 'trust_list.fetch_failed' } });
    lists.close();
  });
});

describe('kind detection', () => {
  it('tells a LoTL, a national list, a JWS and a VICAL apart by content', async () => {
    expect(detectKind(sharedTestdata('eu-lotl.xml'))).toBe('lotl');
    expect(detectKind(buildSignedList({}, await createListSigner('detect')))).toBe('tl');
    expect(detectKind(Buffer.from('eyJhbGciOiJFUzI1NiJ9.e30.sig'))).toBe('lote');
    expect(detectKind(sharedTestdata('aamva-vical.cbor'))).toBe('vical');
    expect(() => detectKind(Buffer.from('%PDF-1.7'))).toThrow(expect.objectContaining({ code: 'trust_list.malformed' }));
  });
});

describe('a VICAL as a source', () => {
  it('vouches for an mDL with the IACAs it lists for that docType, and for nothing else', async () => {
    const vical = sharedTestdata('aamva-vical.cbor');
    const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
    const chain = (decoder.decode(vical) as [Uint8Array, Map<number, Uint8Array[]>])[1].get(33)!;
    const signerPem = `-----BEGIN CERTIFICATE-----\n${Buffer.from(chain[chain.length - 1]!).toString('base64')}\n-----END CERTIFICATE-----`;
    const iaca = (decoder.decode(decoder.decode(vical)[2]) as Map<string, Map<string, Uint8Array>[]>).get('certificateInfos')![1]!.get('certificate')!;
    const path = tempFolder().write('aamva.cbor', vical);
    const lists = trustLists({ sources: [path], signers: [signerPem], clock: { now: () => Date.parse('2025-08-06T00:00:00Z') } });
    await lists.ready();
    expect(lists.status()[0]).toMatchObject({ kind: 'vical', state: 'ready', anchors: 13 });
    // Utah lists two IACAs under one subject name: the key identifier picks the one presented.
    const utah = new X509Certificate(iaca);
    const sameName = (decoder.decode(decoder.decode(vical)[2]) as Map<string, Map<string, Uint8Array>[]>).get('certificateInfos')!.map((info) => new X509Certificate(info.get('certificate')!)).filter((c) => c.subject === utah.subject);
    expect(sameName).toHaveLength(2);
    expect((await lists.issuerAnchors({ purpose: 'credential', credentialTypes: ['org.iso.18013.5.1.mDL'], top: new Uint8Array(iaca) })).anchors).toEqual([utah.toString()]);
    const pid = await lists.issuerAnchors({ purpose: 'credential', credentialTypes: ['urn:eudi:pid:1'], top: new Uint8Array(iaca) });
    expect(pid).toMatchObject({ anchors: [], refusal: { code: 'trusted_issuer.untrusted' } });
    lists.close();
  });
});

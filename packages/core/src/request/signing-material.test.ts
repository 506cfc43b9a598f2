import { X509Certificate, createPrivateKey, generateKeyPairSync, verify } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import { x509Hash } from '../crypto/x509-hash.js';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { checkSigningIdentities, checkSigningInput, clientIdFor, loadSigningIdentities, loadSigningMaterial, type SigningInput } from './signing-material.js';
import { selfSignedSigningInput } from './__fixtures__/request-fixtures.js';

let dev: Awaited<ReturnType<typeof generateDevSigningKey>>;
beforeAll(async () => {
  dev = await generateDevSigningKey({ dnsName: 'verifier.example' });
});

const issuesOf = (fn: () => unknown): { path: string; message: string }[] => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
};

describe('checkSigningInput', () => {
  it('accepts a JWK key with a PEM chain and a PKCS#8 PEM key with a base64 DER chain', () => {
    expect(checkSigningInput(dev.signing)).toBe(dev.signing);
    const pem = createPrivateKey({ key: dev.signing.privateKey as never, format: 'jwk' }).export({ format: 'pem', type: 'pkcs8' }).toString();
    const b64 = new X509Certificate(dev.leafCertificatePem).raw.toString('base64');
    expect(() => checkSigningInput({ privateKey: pem, certificateChain: [b64], trustAnchor: dev.rootCertificatePem })).not.toThrow();
  });

  it('reports an empty chain and a malformed PEM with their paths', () => {
    expect(issuesOf(() => checkSigningInput({ ...dev.signing, certificateChain: [] }))).toEqual([
      { path: 'signing.certificateChain', message: expect.stringContaining('at least the leaf') },
    ]);
    const issues = issuesOf(() => checkSigningInput({ ...dev.signing, certificateChain: ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'] }, 'instances.a.signing'));
    expect(issues[0]?.path).toBe('instances.a.signing.certificateChain.0');
  });

  it('rejects a non-P-256 key without echoing key material', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
    const jwk = privateKey.export({ format: 'jwk' });
    let message = '';
    const issues = issuesOf(() => {
      try {
        checkSigningInput({ ...dev.signing, privateKey: jwk as JsonWebKey });
      } catch (e) {
        message = (e as Error).message;
        throw e;
      }
    });
    expect(issues).toEqual([{ path: 'signing.privateKey', message: 'must be an EC P-256 key (ES256)' }]);
    expect(message).not.toContain(jwk.d!);
    expect(issuesOf(() => checkSigningInput({ ...dev.signing, privateKey: '-----BEGIN PRIVATE KEY-----\nxx\n-----END PRIVATE KEY-----' }))[0]?.path).toBe('signing.privateKey');
  });

  it('rejects a key that does not match the leaf certificate', async () => {
    const other = await generateDevSigningKey();
    const issues = issuesOf(() => checkSigningInput({ ...dev.signing, privateKey: other.signing.privateKey }));
    expect(issues).toEqual([{ path: 'signing.privateKey', message: expect.stringContaining('does not match') }]);
  });

  it('rejects a chain out of order and an anchor that did not issue it', async () => {
    const reversed = issuesOf(() => checkSigningInput({ ...dev.signing, certificateChain: [dev.rootCertificatePem, dev.leafCertificatePem] }));
    expect(reversed.map((i) => i.path)).toContain('signing.privateKey'); // the key matches the leaf, not the root
    expect(reversed.map((i) => i.path)).toContain('signing.certificateChain.0');
    const other = await generateDevSigningKey();
    expect(issuesOf(() => checkSigningInput({ ...dev.signing, trustAnchor: other.rootCertificatePem }))).toEqual([
      { path: 'signing.trustAnchor', message: expect.stringContaining('did not issue') },
    ]);
  });

  it('rejects non-objects', () => {
    expect(issuesOf(() => checkSigningInput('key'))[0]?.path).toBe('signing');
  });
});

describe('loadSigningMaterial', () => {
  it('derives x5c, the x509 hash, DNS names and chain flags', async () => {
    const m = await loadSigningMaterial(dev.signing);
    const leafDer = new X509Certificate(dev.leafCertificatePem).raw;
    expect(m.alg).toBe('ES256');
    expect(m.x5c).toEqual([leafDer.toString('base64')]);
    expect(Buffer.from(m.leafDer).equals(leafDer)).toBe(true);
    expect(m.x509Hash).toBe(x509Hash(leafDer.toString('base64')));
    expect(m.dnsNames).toEqual(['verifier.example']);
    expect(m.leafSelfSigned).toBe(false);
    expect(m.chainIncludesAnchor).toBe(false);
    expect(m.trustAnchorPem).toContain('BEGIN CERTIFICATE');
    // The in-process key signs synchronously too (request objects), and both forms verify under the leaf.
    const data = new TextEncoder().encode('header.payload');
    const leafKey = new X509Certificate(Buffer.from(m.x5c[0]!, 'base64')).publicKey;
    expect(verify('sha256', data, { key: leafKey, dsaEncoding: 'ieee-p1363' }, await m.sign(data))).toBe(true);
    expect(verify('sha256', data, { key: leafKey, dsaEncoding: 'ieee-p1363' }, m.signSync!(data))).toBe(true);
  });

  it('flags a chain that includes the anchor and a self-signed leaf', async () => {
    const withAnchor = { ...dev.signing, certificateChain: [dev.leafCertificatePem, dev.rootCertificatePem] };
    expect((await loadSigningMaterial(withAnchor)).chainIncludesAnchor).toBe(true);
    const self = await loadSigningMaterial(await selfSignedSigningInput());
    expect(self.leafSelfSigned).toBe(true);
  });
});

describe('clientIdFor', () => {
  it('builds x509_hash and x509_san_dns client ids', async () => {
    const m = await loadSigningMaterial(dev.signing);
    expect(clientIdFor('x509_hash', m)).toBe(`x509_hash:${x509Hash(m.x5c[0]!)}`);
    expect(clientIdFor('x509_san_dns', m)).toBe('x509_san_dns:verifier.example');
    expect(() => clientIdFor('x509_san_dns', { ...m, dnsNames: [] })).toThrow(ConfigError);
  });
});

describe('checkSigningIdentities and loadSigningIdentities', () => {
  it('keeps the single-object form: one identity under the instance prefix', async () => {
    const inputs = checkSigningIdentities(dev.signing, 'x509_hash');
    expect(inputs).toEqual([dev.signing]);
    const [primary] = await loadSigningIdentities(inputs, 'x509_hash');
    expect(primary?.clientId).toBe(`x509_hash:${primary?.material.x509Hash}`);
  });

  it('loads several identities primary first, each under its own prefix (the same key as x509_hash and x509_san_dns)', async () => {
    const inputs = checkSigningIdentities([dev.signing, { ...dev.signing, clientIdPrefix: 'x509_san_dns' }], 'x509_hash');
    const identities = await loadSigningIdentities(inputs, 'x509_hash');
    expect(identities.map((i) => i.clientId)).toEqual([expect.stringMatching(/^x509_hash:/), 'x509_san_dns:verifier.example']);
  });

  it('reports every problem with its array path: a broken entry, an empty list, a duplicate client_id', () => {
    expect(issuesOf(() => checkSigningIdentities([], 'x509_hash', 'instances.0.signing'))).toEqual([{ path: 'instances.0.signing', message: 'must list at least one signing identity' }]);
    const issues = issuesOf(() => checkSigningIdentities([dev.signing, { ...dev.signing, certificateChain: [] }, dev.signing], 'x509_hash', 's'));
    expect(issues.map((i) => i.path)).toEqual(['s.1.certificateChain', 's.2']);
    expect(issues[1]?.message).toMatch(/same client_id as identity 0/);
  });

  it('refuses x509_san_dns for a leaf without a dNSName, an unknown prefix, and a primary prefix that differs from the instance setting', async () => {
    const noDns = await selfSignedSigningInput('');
    const extra = await generateDevSigningKey();
    expect(issuesOf(() => checkSigningIdentities([dev.signing, { ...extra.signing, clientIdPrefix: 'x509_san_dns' }, { ...noDns, clientIdPrefix: 'x509_san_dns' }], 'x509_hash', 's')).map((i) => i.path)).toContain('s.2.certificateChain.0');
    expect(issuesOf(() => checkSigningIdentities([dev.signing, { ...extra.signing, clientIdPrefix: 'did' as never }], 'x509_hash', 's'))[0]?.path).toBe('s.1.clientIdPrefix');
    expect(issuesOf(() => checkSigningIdentities({ ...dev.signing, clientIdPrefix: 'x509_san_dns' }, 'x509_hash'))[0]?.path).toBe('signing.clientIdPrefix');
  });
});

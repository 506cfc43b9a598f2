import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { createTestCa } from '@vp-authorizer/testing';
import { ChainKeyMemo } from './chain-key-memo.js';
import { verifyCertificateChain } from './verify-certificate-chain.js';

const HOUR = 3_600_000;

describe('ChainKeyMemo', () => {
  const anchors = Object.freeze(['-----BEGIN CERTIFICATE-----A-----END CERTIFICATE-----']);

  it('answers only for exactly the strings it was given, under the very anchor array', () => {
    const memo = new ChainKeyMemo(4);
    memo.set(['leaf', 'ca'], anchors, 'key-1');
    expect(memo.get(['leaf', 'ca'], anchors)).toBe('key-1');
    expect(memo.get(['leaf'], anchors)).toBeUndefined();
    expect(memo.get(['leaf', 'ca', 'more'], anchors)).toBeUndefined();
    expect(memo.get(['leaf', 'cb'], anchors)).toBeUndefined();
    expect(memo.get(['leaf', 'ca '], anchors)).toBeUndefined();
    // Same content, another array: could have been built from other anchors, so not trusted.
    expect(memo.get(['leaf', 'ca'], Object.freeze([...anchors]))).toBeUndefined();
  });

  it('remembers nothing under an anchor array that could still change', () => {
    const memo = new ChainKeyMemo(4);
    const open = [...anchors];
    memo.set(['leaf'], open, 'key-1');
    expect(memo.get(['leaf'], open)).toBeUndefined();
  });

  it('keeps its own copy of the chain and a bounded number of chains', () => {
    const memo = new ChainKeyMemo(2);
    const chain = ['leaf', 'ca'];
    memo.set(chain, anchors, 'key-1');
    chain[1] = 'other';
    expect(memo.get(['leaf', 'other'], anchors)).toBeUndefined();
    expect(memo.get(['leaf', 'ca'], anchors)).toBe('key-1');
    memo.set(['b'], anchors, 'key-2');
    memo.set(['c'], anchors, 'key-3');
    expect(memo.get(['leaf', 'ca'], anchors)).toBeUndefined();
    expect(memo.get(['c'], anchors)).toBe('key-3');
  });
});

describe('verifyCertificateChain with remembered chain keys (frozen anchors)', () => {
  it('does not carry a verdict from one anchor set to another', async () => {
    const a = await createTestCa('CN=Memo Root A');
    const b = await createTestCa('CN=Memo Root B');
    const leaf = await a.issue({ subject: 'CN=Issuer under A' });
    const now = new Date();
    const underA = Object.freeze([a.pem]);
    expect((await verifyCertificateChain([leaf.x5c], underA, now)).valid).toBe(true);
    expect((await verifyCertificateChain([leaf.x5c], underA, now)).valid).toBe(true);
    expect(await verifyCertificateChain([leaf.x5c], Object.freeze([b.pem]), now)).toMatchObject({ valid: false, code: 'trusted_issuer.untrusted' });
  });

  // The process-wide verdict cache holds the genuine chain's verdict: a memo that matched on the
  // leaf alone would hand it out here.
  it('checks a chain that shares only its leaf string with a remembered one in full', async () => {
    const root = await createTestCa('CN=Memo Root');
    const intermediate = await root.issue({ subject: 'CN=Memo Intermediate', ca: true });
    const leaf = await intermediate.issue({ subject: 'CN=Memo Leaf' });
    const anchors = Object.freeze([root.pem]);
    const now = new Date();
    expect((await verifyCertificateChain([leaf.x5c, intermediate.x5c], anchors, now)).valid).toBe(true);
    const der = Buffer.from(intermediate.der);
    der[der.length - 1] = der[der.length - 1]! ^ 0x01;
    expect((await verifyCertificateChain([leaf.x5c, der.toString('base64')], anchors, now)).valid).toBe(false);
    expect((await verifyCertificateChain([leaf.x5c, intermediate.x5c, intermediate.x5c], anchors, now)).valid).toBe(false);
    expect((await verifyCertificateChain([leaf.x5c], anchors, now)).valid).toBe(false);
  });

  it('still refuses a remembered chain once the clock passes its leaf\'s notAfter', async () => {
    const root = await createTestCa('CN=Memo Short Root');
    const start = Date.now();
    const leaf = await root.issue({ subject: 'CN=Memo Short-lived', notBefore: new Date(start - HOUR), notAfter: new Date(start + HOUR) });
    const anchors = Object.freeze([root.pem]);
    expect((await verifyCertificateChain([leaf.x5c], anchors, new Date(start))).valid).toBe(true);
    expect(await verifyCertificateChain([leaf.x5c], anchors, new Date(start + 2 * HOUR))).toMatchObject({ valid: false, detail: 'the leaf certificate has expired' });
  });
});

import { describe, expect, it } from 'vitest';
import { MIN_WEBHOOK_SECRET_BYTES, webhookKey, webhookSignature } from './webhook-signature.js';

describe('webhook signatures (Standard Webhooks scheme)', () => {
  it('reproduces the example signature published with the Standard Webhooks specification', () => {
    const key = webhookKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')!;
    const body = new TextEncoder().encode('{"test": 2432232314}');
    expect(webhookSignature(key, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('reads whsec_ secrets as base64 and anything else as UTF-8; refuses a whsec_ value that is not base64', () => {
    expect(webhookKey(`whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toEqual(Buffer.alloc(32, 7));
    expect(webhookKey('a plain secret')).toEqual(Buffer.from('a plain secret', 'utf8'));
    expect(webhookKey('whsec_not base64!')).toBeNull();
    expect(webhookKey('whsec_abc')).toBeNull(); // not a whole number of base64 quanta
    expect(MIN_WEBHOOK_SECRET_BYTES).toBe(32);
  });
});

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, hexSignature, isStandardSecret, signatureHeaders } from './signing.js';

const body = JSON.stringify({ data: { id: '0190b8a4-0000-7000-8000-000000000001', type: 'webhook_notification' }, note: 'ünïcødé ✓' });
const id = '0190b8a4-0000-7000-8000-000000000001';

/** What a receiver written for the reference API does: HMAC of the raw body with the secret, constant-time compare. */
function receiverAcceptsHex(secret: string, rawBody: string, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = createHmac('sha256', secret).update(Buffer.from(rawBody, 'utf8')).digest();
  const presented = Buffer.from(header, 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

describe('secrets', () => {
  it('generates whsec_ secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(isStandardSecret(secret)).toBe(true);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it.each([
    [`whsec_${randomBytes(24).toString('base64')}`, true],
    [`whsec_${randomBytes(64).toString('base64')}`, true],
    [`whsec_${randomBytes(23).toString('base64')}`, false],
    ['whsec_' + 'ab-_'.repeat(11), false],
    [`whsec_${randomBytes(32).toString('base64')} `, false],
    [randomBytes(32).toString('base64'), false],
    ['my-old-terminal49-secret', false],
    ['whsec_', false],
  ])('isStandardSecret(%o) is %s', (secret, expected) => {
    expect(isStandardSecret(secret)).toBe(expected);
  });
});

describe('hexSignature', () => {
  it('is the lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret string', () => {
    const secret = generateWebhookSecret();
    const sig = hexSignature(secret, body);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(receiverAcceptsHex(secret, body, sig)).toBe(true);
    // Keyed with the string, prefix included, not with the decoded bytes.
    const decodedKey = Buffer.from(secret.slice(6), 'base64');
    expect(sig).not.toBe(createHmac('sha256', decodedKey).update(body).digest('hex'));
  });

  it('matches a known vector', () => {
    // RFC 4231 test case 2.
    expect(hexSignature('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});

describe('signatureHeaders', () => {
  const now = new Date();

  it('signs both ways with one standard secret', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders({ id, timestamp: now, body, secrets: [secret], referenceHeader: false });
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp', 'x-tidemark-webhook-signature']);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(receiverAcceptsHex(secret, body, headers['x-tidemark-webhook-signature'])).toBe(true);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('adds the reference header with the same value when asked', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders({ id, timestamp: now, body, secrets: [secret], referenceHeader: true });
    expect(headers['x-t49-webhook-signature']).toBe(headers['x-tidemark-webhook-signature']);
    expect(receiverAcceptsHex(secret, body, headers['x-t49-webhook-signature'])).toBe(true);
  });

  it('during a rotation: hex with the new secret, one Standard Webhooks signature per secret', () => {
    const next = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const headers = signatureHeaders({ id, timestamp: now, body, secrets: [next, previous], referenceHeader: false });
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(receiverAcceptsHex(next, body, headers['x-tidemark-webhook-signature'])).toBe(true);
    expect(receiverAcceptsHex(previous, body, headers['x-tidemark-webhook-signature'])).toBe(false);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow('No matching signature');
  });

  it('a legacy secret signs the hex header only', () => {
    const headers = signatureHeaders({ id, timestamp: now, body, secrets: ['my-old-terminal49-secret'], referenceHeader: true });
    expect(Object.keys(headers).sort()).toEqual(['x-t49-webhook-signature', 'x-tidemark-webhook-signature']);
    expect(receiverAcceptsHex('my-old-terminal49-secret', body, headers['x-tidemark-webhook-signature'])).toBe(true);
  });

  it('a legacy current secret with a standard one in grace: hex of the current, standard of the other', () => {
    const previous = generateWebhookSecret();
    const headers = signatureHeaders({ id, timestamp: now, body, secrets: ['legacy', previous], referenceHeader: false });
    expect(receiverAcceptsHex('legacy', body, headers['x-tidemark-webhook-signature'])).toBe(true);
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('signs the exact body and timestamp: any change fails verification', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders({ id, timestamp: now, body, secrets: [secret], referenceHeader: false });
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'other' })).toThrow();
    const later = String(Number(headers['webhook-timestamp']) + 1);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': later })).toThrow();
    expect(receiverAcceptsHex(secret, `${body} `, headers['x-tidemark-webhook-signature'])).toBe(false);
  });

  it('refuses an empty secret list', () => {
    expect(() => signatureHeaders({ id, timestamp: now, body, secrets: [], referenceHeader: false })).toThrow('at least one secret');
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSecretKey, parseSecretKey, seal, unseal } from './sealed.js';

const key = parseSecretKey(newSecretKey());
const otherKey = parseSecretKey(newSecretKey());

/** Flips one bit of the base64url part `index` (1 = IV, 2 = tag, 3 = ciphertext). */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  bytes[0]! ^= 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('seal / unseal', () => {
  it.each(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '', 'ünïcødé ✓ 🚢', 'x'.repeat(10_000)])('round-trips %#', (plaintext) => {
    const sealed = seal(key, plaintext);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/);
    expect(sealed).not.toContain(plaintext || '\u0000');
    expect(unseal(key, sealed)).toBe(plaintext);
  });

  it('uses a fresh IV each time', () => {
    expect(seal(key, 'same')).not.toBe(seal(key, 'same'));
  });

  it.each([
    ['a changed IV', (s: string) => tamper(s, 1), 'altered or sealed with another key'],
    ['a changed tag', (s: string) => tamper(s, 2), 'altered or sealed with another key'],
    ['a changed ciphertext', (s: string) => tamper(s, 3), 'altered or sealed with another key'],
    ['a truncated tag', (s: string) => s.replace(/^(v1\.[^.]+\.)[^.]{4}/, '$1'), 'bad IV or tag length'],
    ['another version', (s: string) => s.replace(/^v1/, 'v2'), 'not a sealed value'],
    ['a missing part', (s: string) => s.split('.').slice(0, 3).join('.'), 'not a sealed value'],
    ['bad base64url', (s: string) => s.replace(/\.([^.]+)$/, '.$1+/'), 'bad base64url'],
    ['plain text', () => 'secret', 'not a sealed value'],
  ])('refuses %s', (_name, change, message) => {
    expect(() => unseal(key, change(seal(key, 'the secret')))).toThrow(message);
  });

  it('refuses another key', () => {
    expect(() => unseal(otherKey, seal(key, 'the secret'))).toThrow('altered or sealed with another key');
  });

  it('refuses a key of the wrong length', () => {
    expect(() => seal(randomBytes(16), 'x')).toThrow('32 bytes');
    expect(() => unseal(randomBytes(16), seal(key, 'x'))).toThrow('32 bytes');
  });
});

describe('keys', () => {
  it('newSecretKey is 32 random bytes in base64', () => {
    const text = newSecretKey();
    expect(text).toHaveLength(44);
    expect(Buffer.from(text, 'base64')).toHaveLength(32);
    expect(newSecretKey()).not.toBe(text);
  });

  it('parseSecretKey reads standard and url-safe base64', () => {
    const bytes = randomBytes(32);
    expect(parseSecretKey(bytes.toString('base64')).equals(bytes)).toBe(true);
    expect(parseSecretKey(` ${bytes.toString('base64')}\n`).equals(bytes)).toBe(true);
    expect(parseSecretKey(bytes.toString('base64url')).equals(bytes)).toBe(true);
  });

  it.each([
    ['16 bytes', randomBytes(16).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['hex', randomBytes(32).toString('hex')],
    ['not base64', '!'.repeat(44)],
    ['empty', ''],
  ])('parseSecretKey refuses %s without echoing it', (_name, text) => {
    expect(() => parseSecretKey(text)).toThrow('32 random bytes in base64');
    try {
      parseSecretKey(text);
    } catch (error) {
      if (text) expect((error as Error).message).not.toContain(text);
    }
  });
});

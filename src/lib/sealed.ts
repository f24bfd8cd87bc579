// Secrets that must be read back (webhook signing secrets, carrier credentials) are kept encrypted at rest, so a
// copy of the database alone does not give them away. AES-256-GCM authenticates as well as encrypts: a changed
// byte or a wrong key is an error, never a wrong plaintext.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Standard base64 of 32 bytes (44 characters with one `=`) or its unpadded base64url form (43 characters). */
const KEY_TEXT = /^(?:[A-Za-z0-9+/]{43}=|[A-Za-z0-9_-]{43})$/;
const B64URL = /^[A-Za-z0-9_-]*$/;

/** A fresh key for `TIDEMARK_SECRET_KEY`: 32 random bytes in standard base64. */
export function newSecretKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/** Exactly 32 bytes from base64 (standard or base64url); throws a sentence that never repeats the input. */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  if (!KEY_TEXT.test(trimmed)) {
    throw new Error('must be 32 random bytes in base64 (44 characters; generate one with `openssl rand -base64 32`)');
  }
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`must decode to exactly ${KEY_BYTES} bytes, got ${key.length}`);
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, each base64url; a fresh random IV every time, so equal plaintexts differ. */
export function seal(key: Buffer, plaintext: string): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** The plaintext of a `seal` output; throws when the text is malformed, was altered, or was sealed with another key. */
export function unseal(key: Buffer, sealed: string): string {
  checkKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error(`not a sealed value (expected ${VERSION}.<iv>.<tag>.<ciphertext>)`);
  const [, ivText, tagText, ciphertextText] = parts as [string, string, string, string];
  if (![ivText, tagText, ciphertextText].every((p) => B64URL.test(p))) throw new Error('not a sealed value (bad base64url)');
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('not a sealed value (bad IV or tag length)');
  // The tag length is pinned: GCM would otherwise accept a truncated tag, which weakens authentication.
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new Error('sealed value could not be opened: it was altered or sealed with another key', { cause: error });
  }
}

function checkKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`a sealing key is ${KEY_BYTES} bytes, got ${key.length}`);
}

// Webhook signatures. Two schemes from one secret: the reference API's hex HMAC of the raw body (keyed with the
// whole secret string, whatever its form, so receivers migrating from the reference keep working) and Standard
// Webhooks (`webhook-id`/`-timestamp`/`-signature`, keyed with the decoded bytes of a `whsec_` secret).
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
/** Standard Webhooks asks for 24 to 64 random bytes; we generate 32. */
const MIN_SECRET_BYTES = 24;
const GENERATED_SECRET_BYTES = 32;
/** Padded standard base64: what the `standardwebhooks` libraries decode (a url-safe one would not verify there). */
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const SIGNATURE_HEADER = 'x-tidemark-webhook-signature';
export const REFERENCE_SIGNATURE_HEADER = 'x-t49-webhook-signature';

/** A new secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(GENERATED_SECRET_BYTES).toString('base64');
}

/**
 * True for `whsec_<standard base64 of ≥ 24 bytes>`. Other secrets (kept from the reference API, or chosen by the
 * account) still sign the hex header; they only lack the Standard Webhooks signature.
 */
export function isStandardSecret(secret: string): boolean {
  if (!secret.startsWith(PREFIX)) return false;
  const encoded = secret.slice(PREFIX.length);
  if (!STANDARD_BASE64.test(encoded)) return false;
  return Buffer.from(encoded, 'base64').length >= MIN_SECRET_BYTES;
}

/** Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the whole secret string (prefix included). */
export function hexSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

export interface SignatureOptions {
  /** `webhook-id`: the notification id, the same on every attempt and redelivery so receivers can de-duplicate. */
  id: string;
  /** `webhook-timestamp`: the time of this attempt (wall clock); each attempt is signed afresh. */
  timestamp: Date;
  /** The exact body that is sent. */
  body: string;
  /** The current secret first, then secrets still in a rotation's grace period. */
  secrets: string[];
  /** Also send the reference API's header name, for receivers written against it. */
  referenceHeader: boolean;
}

/**
 * The signature headers of one attempt (lower-case names). The hex header carries the current secret only, as
 * the reference does; `webhook-signature` carries one `v1,` signature per standard secret, so a receiver still
 * on the previous secret keeps verifying during a rotation. No standard secret: no `webhook-*` headers at all.
 */
export function signatureHeaders(opts: SignatureOptions): Record<string, string> {
  const current = opts.secrets[0];
  if (current === undefined) throw new Error('signatureHeaders needs at least one secret');
  const hex = hexSignature(current, opts.body);
  const headers: Record<string, string> = { [SIGNATURE_HEADER]: hex };
  if (opts.referenceHeader) headers[REFERENCE_SIGNATURE_HEADER] = hex;

  const standard = opts.secrets.filter(isStandardSecret);
  if (standard.length > 0) {
    headers['webhook-id'] = opts.id;
    headers['webhook-timestamp'] = String(Math.floor(opts.timestamp.getTime() / 1000));
    headers['webhook-signature'] = standard.map((secret) => standardSignature(secret, opts.id, opts.timestamp, opts.body)).join(' ');
  }
  return headers;
}

/**
 * `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret's decoded bytes: what the
 * `standardwebhooks` library's `sign` computes, with node's native HMAC (the library's is JavaScript, and every
 * delivery attempt pays for it).
 */
function standardSignature(secret: string, id: string, timestamp: Date, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  const signed = `${id}.${Math.floor(timestamp.getTime() / 1000)}.${body}`;
  return `v1,${createHmac('sha256', key).update(signed, 'utf8').digest('base64')}`;
}

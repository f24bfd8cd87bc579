// Random secrets shown once and stored as SHA-256 digests. The secrets are 256-bit random, so a fast
// digest is enough (no password stretching needed), and lookups go by digest, never by the secret.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export function sha256(value: string): Buffer {
  // One-shot: every authenticated request hashes its key, and a Hash object per call showed in its profile.
  return hash('sha256', value, 'buffer');
}

/** The same digest as lowercase hex. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Constant-time comparison of a presented secret with a stored digest (bytea: a Buffer from pg, a Uint8Array from PGlite). */
export function matchesDigest(presented: string, digest: Uint8Array): boolean {
  const candidate = sha256(presented);
  return candidate.length === digest.length && timingSafeEqual(candidate, digest);
}

/** `tm_live_AbCd…wxyz` → `tm_live_AbCd…wxyz` with the middle hidden. */
export function maskToken(prefix: string, last4: string): string {
  return `${prefix}…${last4}`;
}

// Wire ids: UUIDv7 (time-sortable) for per-account records, UUIDv5 of the natural key for reference data.
import { randomFillSync } from 'node:crypto';
import { v5, v7, validate } from 'uuid';

/** Tidemark's UUIDv5 namespace; changing it would change every reference-data id on every install. */
export const TIDEMARK_NAMESPACE = '6d1f3b8e-2c4a-5e7f-9a1b-3c5d7e9f1a2b';

/**
 * The random bytes of new ids come from a pool refilled from the CSPRNG 256 ids at a time (as node's randomUUID
 * does): uuid's default asks the CSPRNG for 16 bytes on every call, which was 7% of a refresh round's CPU.
 */
const POOL_IDS = 256;
let pool = new Uint8Array(0);
let used = 0;
function random16(): Uint8Array {
  if (used === pool.length) {
    pool = randomFillSync(new Uint8Array(16 * POOL_IDS));
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
}

/**
 * Ids made in one millisecond still sort in the order they were made: uuid's own rule (a random 31-bit counter
 * started each millisecond, incremented within it), kept here because uuid applies it only when it draws the
 * random bytes itself.
 */
const clock = { msecs: Number.NEGATIVE_INFINITY, seq: 0 };

export function newId(): string {
  const random = random16();
  const now = Date.now();
  if (now > clock.msecs) {
    clock.msecs = now;
    clock.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    clock.seq = (clock.seq + 1) | 0;
    if (clock.seq === 0) clock.msecs++;
  }
  return v7({ msecs: clock.msecs, seq: clock.seq, random });
}

/** A stable id for reference data, e.g. referenceId('port', 'USLAX'). */
export function referenceId(kind: string, naturalKey: string): string {
  return v5(`${kind}:${naturalKey.toUpperCase()}`, TIDEMARK_NAMESPACE);
}

export function isUuid(value: string): boolean {
  return validate(value);
}

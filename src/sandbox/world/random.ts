// Seeded randomness for the sandbox world: every draw is a pure function of its labels (seed, SCAC, number,
// purpose…), so the same question always gets the same answer and no draw depends on another's order.
import { createHash } from 'node:crypto';

/** sfc32 seeded from the SHA-256 of the labels: fast, small, and good enough for a simulation. */
export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(...labels: readonly (string | number)[]) {
    const digest = createHash('sha256').update(labels.join('|')).digest();
    this.#a = digest.readUInt32LE(0);
    this.#b = digest.readUInt32LE(4);
    this.#c = digest.readUInt32LE(8);
    this.#d = digest.readUInt32LE(12);
    for (let i = 0; i < 8; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const a = this.#a;
    const b = this.#b;
    const c = this.#c;
    const d = this.#d;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    const r = (c << 21) | (c >>> 11);
    this.#c = (r + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Uniform integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: no items');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One of the items, each with its weight (weights need not sum to 1). */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let x = this.next() * total;
    for (const [item, w] of items) {
      x -= w;
      if (x < 0) return item;
    }
    return items[items.length - 1]![0];
  }
}

/** One uniform draw in [0, 1) for these labels. */
export function unit(...labels: readonly (string | number)[]): number {
  const digest = createHash('sha256').update(labels.join('|')).digest();
  return digest.readUInt32LE(0) / 4294967296;
}

/** A short stable id (hex) for these labels, e.g. a source event id. */
export function shortHash(...labels: readonly (string | number)[]): string {
  return createHash('sha256').update(labels.join('|')).digest('hex').slice(0, 20);
}

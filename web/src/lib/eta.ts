// How far an arrival moved from the first announced one: "2 d 4 h later", "5 h earlier", "as first announced".
import type { Tone } from './lfd';

const HOUR = 3_600_000;

/** `2 d 4 h`, `5 h`, `40 min` for a duration in milliseconds (sign ignored). */
export function duration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < HOUR) return `${Math.max(1, Math.round(abs / 60_000))} min`;
  const hours = Math.round(abs / HOUR);
  const d = Math.floor(hours / 24);
  const h = hours % 24;
  if (!d) return `${h} h`;
  return h ? `${d} d ${h} h` : `${d} d`;
}

export interface EtaShift {
  /** Milliseconds later (positive) or earlier (negative) than the original. */
  ms: number;
  /** `2 d 4 h later`, `5 h earlier`, `as first announced`. */
  text: string;
  tone: Tone;
}

/**
 * The change of `current` (the latest ETA, or the actual arrival) from `original` (the first ETA Tidemark heard);
 * null when either is unknown. Less than half an hour counts as no change.
 */
export function etaShift(current: string | null | undefined, original: string | null | undefined): EtaShift | null {
  if (!current || !original) return null;
  const ms = Date.parse(current) - Date.parse(original);
  if (!Number.isFinite(ms)) return null;
  if (Math.abs(ms) < HOUR / 2) return { ms: 0, text: 'as first announced', tone: 'neutral' };
  if (ms > 0) return { ms, text: `${duration(ms)} later`, tone: ms >= 24 * HOUR ? 'bad' : 'warn' };
  return { ms, text: `${duration(ms)} earlier`, tone: 'good' };
}

// What every benchmark returns, and how a run is reported: one JSON file per run under bench/results/ and a
// table on stdout with each goal, the measured figure, the baseline measured in the same run and pass/fail.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';

export interface GoalResult {
  /** Stable id, e.g. `container-get`. */
  id: string;
  /** The goal in words, as docs/performance.md states it. */
  goal: string;
  /** What was measured, in words with units (e.g. `12,340 req/s, p99 3.1 ms at 6,000 req/s`). */
  measured: string;
  /** The baseline measured in the same run, in words; null when the goal has none. */
  baseline: string | null;
  /** measured ÷ baseline where the goal is a ratio; null otherwise. */
  ratio: number | null;
  /** Whether the goal holds; null when the run cannot judge it (a smoke run, a skipped part). */
  pass: boolean | null;
  /** The raw numbers (for the JSON file and later comparison). */
  figures: Record<string, number | string | null>;
  notes?: string;
}

export interface RunInfo {
  startedAt: string;
  finishedAt: string;
  node: string;
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  postgres: string | null;
  size: string;
  smoke: boolean;
}

export function machine(): Pick<RunInfo, 'node' | 'cores' | 'cpuModel' | 'memoryGiB'> {
  const cpu = cpus();
  return {
    node: process.version,
    cores: cpu.length,
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}

/** Writes bench/results/<started-at>.json and returns its path. */
export function writeResults(info: RunInfo, results: GoalResult[], dir = resolve(import.meta.dirname, '../results')): string {
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, `${info.startedAt.replace(/[:.]/g, '-')}${info.smoke ? '-smoke' : ''}.json`);
  writeFileSync(file, `${JSON.stringify({ ...info, results }, null, 2)}\n`);
  return file;
}

const verdict = (r: GoalResult) => (r.pass === null ? 'n/a' : r.pass ? 'PASS' : 'FAIL');

/** The human summary: one row per goal. */
export function summaryTable(info: RunInfo, results: GoalResult[]): string {
  const rows = results.map((r) => [
    r.id,
    r.goal,
    r.measured,
    r.baseline ?? '—',
    r.ratio === null ? '—' : `${(r.ratio * 100).toFixed(0)}%`,
    verdict(r),
  ]);
  const head = ['benchmark', 'goal', 'measured', 'baseline (same run)', 'ratio', 'result'];
  const widths = head.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  return [
    `tidemark bench — ${info.startedAt} — node ${info.node}, ${info.cores} cores (${info.cpuModel}), ${info.memoryGiB} GiB` +
      `${info.postgres ? `, PostgreSQL ${info.postgres}` : ''}, data size ${info.size}${info.smoke ? ' (smoke run: goals not judged)' : ''}`,
    line(head),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...rows.map(line),
  ].join('\n');
}

/** `12345.6` → `12,346`. */
export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

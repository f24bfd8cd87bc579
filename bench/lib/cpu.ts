// CPU accounting from /proc (Linux): what processes used during a measured phase, and how busy the whole machine
// was, so a result can say where its time went and whether the cores were already saturated.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import type { PgDb } from '../../src/storage/pg.js';

/** CPU seconds (user + system) process `pid` has used so far; null where /proc cannot tell (not Linux, gone). */
export function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** CPU seconds used by these processes so far (those /proc cannot tell about count as 0). */
export const cpuOf = (pids: readonly (number | undefined)[]) => new Map(pids.map((p) => [p, cpuSeconds(p) ?? 0]));

/**
 * CPU seconds these processes (a `cpuOf` taken earlier) have used since; `started`: processes found since (new
 * database connections, say), counted whole.
 */
export function cpuUsedSince(at0: Map<number | undefined, number>, started: readonly number[] = []): number {
  let sum = [...at0].reduce((n, [pid, s0]) => n + Math.max(0, (cpuSeconds(pid) ?? s0) - s0), 0);
  for (const pid of started) if (!at0.has(pid)) sum += cpuSeconds(pid) ?? 0;
  return sum;
}

/** The server processes serving this database now. */
export async function backendPids(db: PgDb): Promise<number[]> {
  return (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).map((r) => r.pid);
}

/** The machine's CPU time so far (all cores, in clock ticks): busy and total; null where /proc/stat is missing. */
export function machineTicks(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq! + steal!;
    return { busy, total: busy + idle! + iowait! };
  } catch {
    return null;
  }
}

/** The share of the machine's CPU time (all cores) that was busy since `t0` (from `machineTicks`). */
export function machineBusySince(t0: { busy: number; total: number } | null): number | null {
  const t1 = machineTicks();
  if (!t0 || !t1 || t1.total === t0.total) return null;
  return (t1.busy - t0.busy) / (t1.total - t0.total);
}

/**
 * With TIDEMARK_BENCH_PROFILE=<dir>, starts V8's CPU profiler in this process for a measured phase and returns
 * what stops it and writes `<dir>/<name>-<time>.cpuprofile` (open in Chrome DevTools); null without the variable.
 * Profiles the phase alone, not the set-up around it that a whole-process `--cpu-prof` would mix in.
 */
export async function profileWindow(name: string): Promise<(() => Promise<void>) | null> {
  const dir = process.env.TIDEMARK_BENCH_PROFILE;
  if (!dir) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`), JSON.stringify(profile));
  };
}

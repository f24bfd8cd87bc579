import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TidemarkError } from '../domain/errors.js';
import { LOCK_FILE, lockDataDir } from './dir-lock.js';

const dirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tidemark-lock-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

describe('data directory lock', () => {
  it('is exclusive while held and free after release', () => {
    const d = dir();
    const lock = lockDataDir(d, 'test');
    expect(() => lockDataDir(d, 'second')).toThrow(TidemarkError);
    expect(() => lockDataDir(d, 'second')).toThrow(/in use by another Tidemark process \(pid \d+, test/);
    lock.release();
    expect(existsSync(join(d, LOCK_FILE))).toBe(false);
    lockDataDir(d, 'again').release();
  });

  it('respects a live owner in another process', () => {
    const d = dir();
    const child = spawn('sleep', ['30']);
    try {
      const pid = child.pid!;
      writeFileSync(
        join(d, LOCK_FILE),
        JSON.stringify({ pid, startTime: startTime(pid), host: hostname(), purpose: 'server', since: 'now' }),
      );
      expect(() => lockDataDir(d, 'cli')).toThrow(/pid \d+, server/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('takes over the lock of a process that died without releasing it', () => {
    const d = dir();
    const dead = spawnSync('true');
    writeFileSync(
      join(d, LOCK_FILE),
      JSON.stringify({ pid: dead.pid, startTime: '1', host: hostname(), purpose: 'killed', since: 'then' }),
    );
    const lock = lockDataDir(d, 'restart');
    expect(JSON.parse(readFileSync(join(d, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to a different process', () => {
    const d = dir();
    const child = spawn('sleep', ['30']);
    try {
      writeFileSync(
        join(d, LOCK_FILE),
        JSON.stringify({ pid: child.pid, startTime: '12345', host: hostname(), purpose: 'old', since: 'then' }),
      );
      lockDataDir(d, 'restart').release();
    } finally {
      child.kill('SIGKILL');
    }
  });
});

// An exclusive lock on the PGlite data directory. PGlite itself does not stop a second process from
// opening the same directory (which corrupts it), so every opener takes this lock first.
//
// The lock file records the owner's pid and its kernel start time. A lock whose owner is gone (killed,
// crashed) is stale and is taken over at once; mtime-based locks would instead make a restart wait, and
// could be lost while PGlite blocks the event loop for seconds (initdb). See docs/decisions/0002.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { TidemarkError } from '../domain/errors.js';

export const LOCK_FILE = 'tidemark.lock';

interface LockOwner {
  pid: number;
  startTime: string | null;
  host: string;
  purpose: string;
  since: string;
}

/** The kernel's start time of a process (Linux), to tell a live owner from a reused pid. */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) may contain spaces, so count from its closing paren.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true; // another machine's process: we cannot tell, so respect it
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const start = processStartTime(owner.pid);
  return owner.startTime === null || start === null || start === owner.startTime;
}

function readOwner(path: string): LockOwner | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
  } catch {
    return null; // unreadable or half-written: treated as stale below only if it stays unreadable
  }
}

export interface DirLock {
  release(): void;
}

/** Takes the lock or throws a `locked` error that names the holder. */
export function lockDataDir(dir: string, purpose: string): DirLock {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const me: LockOwner = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    host: hostname(),
    purpose,
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const owner = readOwner(path);
        if (owner?.pid === me.pid && owner.since === me.since) unlinkSync(path);
      };
      process.once('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = readOwner(path);
    if (owner && isAlive(owner)) {
      throw new TidemarkError(
        'locked',
        `The data directory ${dir} is in use by another Tidemark process (pid ${owner.pid}, ${owner.purpose}, since ${owner.since}). ` +
          'Stop it first, or run this command against the running server through its /admin API.',
      );
    }
    // Stale: move it aside atomically so that two processes cannot both delete a fresh lock.
    try {
      renameSync(path, `${path}.stale-${process.pid}`);
      unlinkSync(`${path}.stale-${process.pid}`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw new TidemarkError('locked', `Could not lock the data directory ${dir}`);
}

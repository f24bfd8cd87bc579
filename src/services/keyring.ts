// The installation's key for sealing secrets at rest (webhook signing secrets, OAuth client secrets and signing key).
// It never lives in the database it protects: TIDEMARK_SECRET_KEY (required with DATABASE_URL), else, on PGlite,
// a file of its own in the data directory (mode 0600). Keys that versions before 0027 generated and kept in the
// database are moved out (PGlite) or must be exported once and set (server); a rotation re-seals every value.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../config/index.js';
import { TidemarkError } from '../domain/errors.js';
import { newSecretKey, parseSecretKey, seal, unseal } from '../lib/sealed.js';
import type { Db } from '../storage/db.js';
import { anySealed, forgetLegacySecretKey, legacySecretKey, sealedValuesForUpdate } from '../storage/repositories/sealed.js';

export interface KeyringOptions {
  db: Db;
  /** TIDEMARK_SECRET_KEY, when set. */
  configured: Buffer | null;
  /** The PGlite data directory's key file; null on a server. */
  keyFile: string | null;
  /** Told what the keyring did once (moved a legacy key out of the database). */
  log?: (message: string) => void;
}

const REQUIRED =
  'TIDEMARK_SECRET_KEY: is required with DATABASE_URL (the key that seals stored secrets must not live in the database it protects); generate one with `tidemark secret-key new` and set the same value in every process';
const LEGACY_ON_SERVER =
  'TIDEMARK_SECRET_KEY: is required with DATABASE_URL. This database still holds the key an earlier version generated: print it with `tidemark secret-key export`, set it as TIDEMARK_SECRET_KEY in every process and start again (the start then removes it from the database)';

/** The installation's key for sealing secrets (see the header): loaded, checked and, on PGlite, created once. */
export class SecretKeyring {
  #key: Promise<Buffer> | null = null;

  constructor(private readonly o: KeyringOptions) {}

  /** The key; the first call checks where it lives and refuses (ConfigError) when it cannot be had safely. */
  key(): Promise<Buffer> {
    this.#key ??= this.#load().catch((err) => {
      this.#key = null;
      throw err;
    });
    return this.#key;
  }

  async #load(): Promise<Buffer> {
    const { db, configured, keyFile } = this.o;
    const legacyText = await legacySecretKey(db);
    const legacy = legacyText === undefined ? null : parseSecretKey(legacyText);
    const fileKey = keyFile ? readKeyFile(keyFile) : null;
    if (configured) {
      if (legacy && !sameKey(legacy, configured)) {
        throw new ConfigError([
          'TIDEMARK_SECRET_KEY: differs from the key an earlier version generated and kept in this database, which sealed its secrets. Set TIDEMARK_SECRET_KEY to that key (`tidemark secret-key export` prints it), or re-seal with it: TIDEMARK_OLD_SECRET_KEY=<exported key> tidemark secret-key reseal',
        ]);
      }
      if (fileKey && !sameKey(fileKey, configured)) {
        throw new ConfigError([
          `TIDEMARK_SECRET_KEY: differs from the key in ${keyFile}. Re-seal the stored secrets with the new key (\`tidemark secret-key reseal\`, which rewrites the file), or remove the file if TIDEMARK_SECRET_KEY is the key they were sealed with`,
        ]);
      }
      if (legacy) await this.#forgetLegacy('TIDEMARK_SECRET_KEY');
      return configured;
    }
    if (!keyFile) throw new ConfigError([legacy ? LEGACY_ON_SERVER : REQUIRED]);
    if (fileKey) {
      if (legacy && !sameKey(legacy, fileKey)) {
        throw new ConfigError([
          `the key in ${keyFile} differs from the key an earlier version kept in this database. Re-seal with TIDEMARK_OLD_SECRET_KEY set to the database's key (\`tidemark secret-key export\`) and TIDEMARK_SECRET_KEY to the file's`,
        ]);
      }
      if (legacy) await this.#forgetLegacy(keyFile);
      return fileKey;
    }
    if (legacy) {
      // An installation from before: the key moves out of the database into its file, then leaves the database.
      writeKeyFile(keyFile, legacy, { replace: false });
      await this.#forgetLegacy(keyFile);
      return legacy;
    }
    if (await anySealed(db)) {
      throw new ConfigError([
        `the secret key file ${keyFile} is missing, but this database holds secrets sealed with it: restore the file from a backup, or set TIDEMARK_SECRET_KEY to the key`,
      ]);
    }
    const key = parseSecretKey(newSecretKey());
    writeKeyFile(keyFile, key, { replace: false });
    return key;
  }

  async #forgetLegacy(nowIn: string): Promise<void> {
    await forgetLegacySecretKey(this.o.db);
    this.o.log?.(`the secret key an earlier version kept in the database was removed from it; it is kept in ${nowIn}`);
  }
}

/** The key an earlier version generated and kept in the database (base64), if it is still there. */
export function storedLegacyKey(db: Db): Promise<string | undefined> {
  return legacySecretKey(db);
}

export interface ResealResult {
  /** Values sealed again with the new key. */
  resealed: number;
  /** Values that the new key opened already (a re-seal run again after it committed). */
  alreadyNew: number;
}

/**
 * Re-seals every sealed value from `oldKey` to `newKey` in one transaction: all or nothing. A value that neither key
 * opens stops it (naming where) and changes nothing. On PGlite, the data directory's key file, where there is one,
 * then holds the new key, so starts without TIDEMARK_SECRET_KEY keep working. A crash between the commit and the file leaves the old key in
 * the file: the same re-seal run again finds every value sealed with the new key already, and writes the file.
 */
export async function resealSecrets(
  db: Db,
  oldKey: Buffer,
  newKey: Buffer,
  keyFile: string | null,
  log: (message: string) => void = () => {},
): Promise<ResealResult> {
  const result = await db.transaction(async (tx) => {
    let resealed = 0;
    let alreadyNew = 0;
    for (const value of await sealedValuesForUpdate(tx)) {
      let plain: string;
      try {
        plain = unseal(oldKey, value.sealed);
      } catch (err) {
        if (opens(newKey, value.sealed)) {
          alreadyNew += 1;
          continue;
        }
        throw new TidemarkError('conflict', `${value.where}: opens with neither the old nor the new key; nothing was changed`, {
          cause: err,
        });
      }
      await value.write(tx, seal(newKey, plain));
      resealed += 1;
    }
    // The old key has no business in the database once nothing is sealed with it.
    await forgetLegacySecretKey(tx);
    return { resealed, alreadyNew };
  });
  // Only an installation that keeps its key in the file gets the new key there: one that sets TIDEMARK_SECRET_KEY
  // keeps it out of the data directory (and out of every copy of it).
  if (keyFile && existsSync(keyFile)) {
    writeKeyFile(keyFile, newKey, { replace: true });
    log(`${keyFile} now holds the new key`);
  }
  return result;
}

function opens(key: Buffer, sealed: string): boolean {
  try {
    unseal(key, sealed);
    return true;
  } catch {
    return false;
  }
}

function sameKey(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The key in `path`, or null when there is no file; a file that is not a key is an error, never replaced. */
export function readKeyFile(path: string): Buffer | null {
  if (!existsSync(path)) return null;
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077) {
    throw new ConfigError([`${path}: readable by others (mode ${mode.toString(8)}); it holds the secret key: chmod 600 it`]);
  }
  try {
    return parseSecretKey(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError([`${path}: ${(err as Error).message}`]);
  }
}

/**
 * Writes the key to `path` with mode 0600, durably (fsync of the file and of its directory) before anything relies
 * on it. A new file is created exclusively; a replacement goes through a temporary file and a rename, so a crash
 * leaves the old key or the new one, never half of one.
 */
export function writeKeyFile(path: string, key: Buffer, { replace }: { replace: boolean }): void {
  const text = `${key.toString('base64')}\n`;
  const target = replace ? join(dirname(path), `.secret-key.${process.pid}.tmp`) : path;
  const fd = openSync(target, replace ? 'w' : 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (replace) renameSync(target, path);
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

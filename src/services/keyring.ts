// The installation's key for sealing secrets at rest (webhook signing secrets, OAuth client secrets and keys):
// TIDEMARK_SECRET_KEY, else one generated once and kept in the database, shared by every process.
import type { Clock } from '../domain/clock.js';
import { newSecretKey, parseSecretKey } from '../lib/sealed.js';
import type { Db } from '../storage/db.js';
import { settingOrInsert } from '../storage/repositories/settings.js';

const SECRET_KEY_SETTING = 'secret_key';

/** The installation's key for sealing secrets: from the config, else generated once and kept in the database. */
export class SecretKeyring {
  #key: Promise<Buffer> | null = null;

  constructor(
    private readonly db: Db,
    private readonly configured: Buffer | null,
    private readonly clock: Clock,
  ) {}

  key(): Promise<Buffer> {
    if (this.configured) return Promise.resolve(this.configured);
    this.#key ??= this.#load().catch((err) => {
      this.#key = null;
      throw err;
    });
    return this.#key;
  }

  async #load(): Promise<Buffer> {
    return parseSecretKey(await settingOrInsert(this.db, SECRET_KEY_SETTING, newSecretKey(), this.clock.now()));
  }
}

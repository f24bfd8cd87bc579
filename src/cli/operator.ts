// The operator's recovery and key commands: a new admin token or owner setup link (the first start's output lost),
// and the secret key (a new one, the one an earlier version kept in the database, a re-seal for a rotation). They
// open the database directly, so reaching it (the PGlite data directory, or DATABASE_URL) is the proof of being the
// operator; on PGlite they refuse while a server holds the directory.
import type { Command, Option } from 'commander';
import type { Config } from '../config/index.js';
import { systemClock } from '../domain/clock.js';
import { TidemarkError } from '../domain/errors.js';
import { newSecretKey, parseSecretKey } from '../lib/sealed.js';
import { readKeyFile, resealSecrets, storedLegacyKey } from '../services/keyring.js';
import { issueAdminToken, issueOwnerSetupLink } from '../services/setup.js';
import { linkUrl, type UserService } from '../services/users.js';
import type { Db } from '../storage/db.js';

export interface OperatorCommandDeps {
  /** Opens the database for a one-shot command (refusing a data directory held by a server), migrates, runs. */
  withDb<T>(purpose: string, fn: (db: Db, cfg: Config) => Promise<T>, overrides?: { dataDir?: string }): Promise<T>;
  dataDirOption(): Option;
  /** The services a command needs beyond the database (the owner link is issued by the users service). */
  services(db: Db, cfg: Config): { users: Pick<UserService, 'issueToken'> };
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function registerOperatorCommands(program: Command, deps: OperatorCommandDeps): void {
  const { withDb, dataDirOption } = deps;

  program
    .command('admin-token')
    .description('The admin token (bearer of /admin/*)')
    .command('new')
    .description('Issue a new admin token and print it; the previous one stops working (the server may keep running)')
    .addOption(dataDirOption())
    .action(async (opts: { dataDir?: string }) => {
      const token = await withDb('tidemark admin-token new', (db, cfg) => issueAdminToken(db, systemClock, cfg.adminToken), {
        dataDir: opts.dataDir,
      });
      out(`Admin token: ${token}`);
    });

  program
    .command('owner-link')
    .description("A one-time link that makes its user an owner of the operator's account in the web app")
    .command('new')
    .description('Issue a new owner setup link (valid 7 days) and print it; earlier unused ones stop working')
    .option('--account <name>', "the account (default: the operator's, created at first start)")
    .option('--add-owner', 'also when the account has an owner already')
    .addOption(dataDirOption())
    .action(async (opts: { account?: string; addOwner?: boolean; dataDir?: string }) => {
      const { link, accountName } = await withDb(
        'tidemark owner-link new',
        async (db, cfg) => {
          const issued = await issueOwnerSetupLink(db, systemClock, deps.services(db, cfg).users, {
            accountName: opts.account,
            addOwner: opts.addOwner ?? false,
          });
          return { link: linkUrl(cfg.publicUrl, issued.token), accountName: issued.accountName };
        },
        { dataDir: opts.dataDir },
      );
      out(`Owner setup (${accountName}): ${link}`);
    });

  const secretKey = program
    .command('secret-key')
    .description('The key that seals stored secrets (webhook signing secrets, OAuth client secrets and signing key)');
  secretKey
    .command('new')
    .description('Print a new random key for TIDEMARK_SECRET_KEY (32 bytes, base64); touches nothing')
    .action(() => out(newSecretKey()));
  secretKey
    .command('export')
    .description(
      'Print the key this installation seals with when TIDEMARK_SECRET_KEY is not set: the one an earlier version kept in the database, else (PGlite) the data directory’s key file',
    )
    .addOption(dataDirOption())
    .action(async (opts: { dataDir?: string }) => {
      const key = await withDb(
        'tidemark secret-key export',
        async (db, cfg) => {
          const kept = await keptKey(db, cfg);
          if (kept) return kept.toString('base64');
          throw new TidemarkError(
            'not_found',
            cfg.secretKeyFile
              ? `No key to export: the database holds none and there is no ${cfg.secretKeyFile}`
              : 'No key to export: the database holds none (the key is TIDEMARK_SECRET_KEY, kept outside it)',
          );
        },
        { dataDir: opts.dataDir },
      );
      out(key);
    });
  secretKey
    .command('reseal')
    .description(
      'Re-seal every stored secret with the key in TIDEMARK_SECRET_KEY, in one transaction; opens them with TIDEMARK_OLD_SECRET_KEY, else with the key kept in the database by an earlier version or (PGlite) the key file, which then holds the new key',
    )
    .addOption(dataDirOption())
    .action(async (opts: { dataDir?: string }) => {
      const result = await withDb(
        'tidemark secret-key reseal',
        async (db, cfg) => {
          if (!cfg.secretKey) {
            throw new TidemarkError('validation_failed', 'Set TIDEMARK_SECRET_KEY to the new key (`tidemark secret-key new` makes one)');
          }
          const oldKey = cfg.oldSecretKey ?? (await keptKey(db, cfg));
          if (!oldKey) {
            throw new TidemarkError('validation_failed', 'Set TIDEMARK_OLD_SECRET_KEY to the key the stored secrets are sealed with now');
          }
          if (oldKey.equals(cfg.secretKey)) {
            throw new TidemarkError('validation_failed', 'The old and the new key are the same: nothing to re-seal');
          }
          return resealSecrets(db, oldKey, cfg.secretKey, cfg.secretKeyFile, (m) => process.stderr.write(`${m}\n`));
        },
        { dataDir: opts.dataDir },
      );
      out(
        `Re-sealed ${result.resealed} secret${result.resealed === 1 ? '' : 's'} with the new key${result.alreadyNew ? ` (${result.alreadyNew} already were)` : ''}. Start every process with the new TIDEMARK_SECRET_KEY.`,
      );
    });
}

/** The key this installation seals with when TIDEMARK_SECRET_KEY is not set: the one an earlier version kept in the
 * database, else (PGlite) the data directory's key file; null when there is neither. */
async function keptKey(db: Db, cfg: Config): Promise<Buffer | null> {
  const legacy = await storedLegacyKey(db);
  if (legacy !== undefined) return parseSecretKey(legacy);
  return cfg.secretKeyFile ? readKeyFile(cfg.secretKeyFile) : null;
}

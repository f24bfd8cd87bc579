import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, onServer, type TestDatabase } from '../../test/kit/databases.js';
import { ConfigError } from '../config/index.js';
import { FixedClock } from '../domain/clock.js';
import { newSecretKey, parseSecretKey, seal, unseal } from '../lib/sealed.js';
import { Webhook } from 'standardwebhooks';
import { hexSignature, SIGNATURE_HEADER, signatureHeaders } from '../webhooks/signing.js';
import { AccountService } from './accounts.js';
import { resealSecrets, SecretKeyring } from './keyring.js';
import { WebhookService } from './webhooks.js';

let d: TestDatabase;
let dir: string;
let keyFile: string;
const clock = new FixedClock('2026-03-01T12:00:00Z');
beforeAll(async () => {
  d = await freshDatabase();
});
afterAll(() => d.drop());
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidemark-keyring-'));
  keyFile = join(dir, 'secret-key');
  await d.db.exec("DELETE FROM webhooks; DELETE FROM oauth_records; DELETE FROM settings WHERE key IN ('secret_key', 'oauth_signing_jwk')");
  return () => rmSync(dir, { recursive: true, force: true });
});

const settingKeys = async () => (await d.db.query<{ key: string }>('SELECT key FROM settings ORDER BY key')).map((r) => r.key);
const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return (err as ConfigError).message;
};

function webhooks(keyring: SecretKeyring) {
  return new WebhookService({
    db: d.db,
    wall: clock,
    keyring,
    allowPrivate: true,
    transport: {
      post: async () => {
        throw new Error('nothing is sent in these tests');
      },
    },
    publicUrl: 'http://tidemark.test',
    delivery: { timeoutMs: 1000, userAgent: 'Tidemark-Webhooks/test', referenceHeader: false },
    egressIps: [],
  });
}

async function webhookWithSecret(keyring: SecretKeyring) {
  const account = await new AccountService(clock).create(d.db, {
    name: `acme-${Math.random().toString(36).slice(2, 8)}`,
    plan: 'unlimited',
  });
  const hook = await webhooks(keyring).create(account, { url: 'http://127.0.0.1:9/hooks', events: ['container.updated'] });
  return { account, hook };
}

describe('without TIDEMARK_SECRET_KEY on PGlite (a key file in the data directory)', () => {
  it('generates the key into its own file (mode 0600), never into the database, and reads it back', async () => {
    const key = await new SecretKeyring({ db: d.db, configured: null, keyFile }).key();
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(parseSecretKey(readFileSync(keyFile, 'utf8')).equals(key)).toBe(true);
    expect(await settingKeys()).not.toContain('secret_key');
    const { account, hook } = await webhookWithSecret(new SecretKeyring({ db: d.db, configured: null, keyFile }));
    const dump = JSON.stringify(await d.db.query('SELECT * FROM webhooks')) + JSON.stringify(await d.db.query('SELECT * FROM settings'));
    expect(dump).not.toContain(key.toString('base64'));
    expect(dump).not.toContain(hook.secret);
    // Another process: the same file, the same secret.
    expect((await webhooks(new SecretKeyring({ db: d.db, configured: null, keyFile })).get(account.id, hook.id)).secret).toBe(hook.secret);
  });

  it('moves the key an earlier version kept in the database into the file, then removes it from the database', async () => {
    // An installation from before: a secret sealed with the key generated and kept in settings.
    const legacy = newSecretKey();
    const { account, hook } = await webhookWithSecret(new SecretKeyring({ db: d.db, configured: parseSecretKey(legacy), keyFile: null }));
    await d.db.query("INSERT INTO settings (key, value, updated_at) VALUES ('secret_key', $1, now())", [JSON.stringify(legacy)]);
    const logged: string[] = [];
    const key = await new SecretKeyring({ db: d.db, configured: null, keyFile, log: (m) => logged.push(m) }).key();
    expect(key.equals(parseSecretKey(legacy))).toBe(true);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(legacy);
    expect(await settingKeys()).not.toContain('secret_key');
    expect(logged.join()).toMatch(/removed from it; it is kept in .*secret-key/);
    expect((await webhooks(new SecretKeyring({ db: d.db, configured: null, keyFile })).get(account.id, hook.id)).secret).toBe(hook.secret);
  });

  it('refuses a missing key file while secrets are sealed, and a key file others can read', async () => {
    await webhookWithSecret(new SecretKeyring({ db: d.db, configured: null, keyFile }));
    rmSync(keyFile);
    expect(await refusal(new SecretKeyring({ db: d.db, configured: null, keyFile }).key())).toMatch(/secret-key is missing.*restore/);
    expect(existsSync(keyFile)).toBe(false);
    writeFileSync(keyFile, newSecretKey());
    chmodSync(keyFile, 0o644);
    expect(await refusal(new SecretKeyring({ db: d.db, configured: null, keyFile }).key())).toMatch(/readable by others.*chmod 600/);
  });
});

describe('with TIDEMARK_SECRET_KEY', () => {
  it('uses it; a key an earlier version kept in the database goes once it is the same, and stops the start when it differs', async () => {
    const legacy = newSecretKey();
    await d.db.query("INSERT INTO settings (key, value, updated_at) VALUES ('secret_key', $1, now())", [JSON.stringify(legacy)]);
    const other = parseSecretKey(newSecretKey());
    expect(await refusal(new SecretKeyring({ db: d.db, configured: other, keyFile: null }).key())).toMatch(
      /differs from the key an earlier version generated.*secret-key export/,
    );
    expect(await settingKeys()).toContain('secret_key');
    const key = await new SecretKeyring({ db: d.db, configured: parseSecretKey(legacy), keyFile: null }).key();
    expect(key.toString('base64')).toBe(legacy);
    expect(await settingKeys()).not.toContain('secret_key');
  });

  it('stops the start when a key file in the data directory holds another key', async () => {
    writeFileSync(keyFile, `${newSecretKey()}\n`, { mode: 0o600 });
    expect(await refusal(new SecretKeyring({ db: d.db, configured: parseSecretKey(newSecretKey()), keyFile }).key())).toMatch(
      /differs from the key in .*secret-key reseal/,
    );
  });
});

describe.skipIf(!onServer())('on a server', () => {
  it('refuses without TIDEMARK_SECRET_KEY, saying how to get one, or how to export the key an earlier version kept', async () => {
    expect(await refusal(new SecretKeyring({ db: d.db, configured: null, keyFile: null }).key())).toMatch(
      /TIDEMARK_SECRET_KEY: is required with DATABASE_URL.*tidemark secret-key new/,
    );
    await d.db.query("INSERT INTO settings (key, value, updated_at) VALUES ('secret_key', $1, now())", [JSON.stringify(newSecretKey())]);
    expect(await refusal(new SecretKeyring({ db: d.db, configured: null, keyFile: null }).key())).toMatch(/tidemark secret-key export/);
  });
});

describe('re-sealing with a new key', () => {
  it('re-seals every sealed value in one transaction; webhook signatures verify with the secrets it opens after', async () => {
    const oldKey = parseSecretKey(newSecretKey());
    const newKey = parseSecretKey(newSecretKey());
    const before = new SecretKeyring({ db: d.db, configured: oldKey, keyFile: null });
    const { account, hook } = await webhookWithSecret(before);
    await webhooks(before).rotateSecret(account.id, hook.id);
    await d.db.query("INSERT INTO settings (key, value, updated_at) VALUES ('oauth_signing_jwk', $1, now())", [
      JSON.stringify(seal(oldKey, '{"kty":"EC"}')),
    ]);
    await d.db.query(
      `INSERT INTO oauth_records (model, id_sha256, payload) VALUES ('Client', '\\x01', $1), ('Session', '\\x02', $2), ('Grant', '\\x03', '{"plain":1}')`,
      [JSON.stringify({ client_secret_sealed: seal(oldKey, 'client-secret') }), JSON.stringify({ jti_sealed: seal(oldKey, 'jti-1') })],
    );
    const secretsBefore = await webhooks(before).signingSecrets((await d.db.query('SELECT * FROM webhooks'))[0] as never, clock.now());
    expect(secretsBefore).toHaveLength(2);

    // A value no key opens stops it all: nothing changes.
    await d.db.query("INSERT INTO oauth_records (model, id_sha256, payload) VALUES ('Client', '\\x09', $1)", [
      JSON.stringify({ client_secret_sealed: seal(parseSecretKey(newSecretKey()), 'stray') }),
    ]);
    const snapshot = JSON.stringify(await d.db.query('SELECT secret_sealed, previous_secret_sealed FROM webhooks'));
    await expect(resealSecrets(d.db, oldKey, newKey, null)).rejects.toThrow(/OAuth Client record client_secret_sealed: opens with neither/);
    expect(JSON.stringify(await d.db.query('SELECT secret_sealed, previous_secret_sealed FROM webhooks'))).toBe(snapshot);
    await d.db.query("DELETE FROM oauth_records WHERE id_sha256 = '\\x09'");

    // A data directory whose key comes from TIDEMARK_SECRET_KEY has no key file, and gets none from a re-seal.
    const noFile = join(dir, 'no-key-file');
    expect(await resealSecrets(d.db, oldKey, newKey, noFile)).toEqual({ resealed: 5, alreadyNew: 0 });
    expect(existsSync(noFile)).toBe(false);
    expect(await resealSecrets(d.db, newKey, oldKey, null)).toEqual({ resealed: 5, alreadyNew: 0 });
    // The usual PGlite installation: the file holds the key the secrets are sealed with, and then the new one.
    writeFileSync(keyFile, oldKey.toString('base64'), { mode: 0o600 });
    expect(await resealSecrets(d.db, oldKey, newKey, keyFile)).toEqual({ resealed: 5, alreadyNew: 0 });
    // Run again (say after a crash before the key file was written): nothing left to do, no error.
    expect(await resealSecrets(d.db, oldKey, newKey, keyFile)).toEqual({ resealed: 0, alreadyNew: 5 });
    expect(parseSecretKey(readFileSync(keyFile, 'utf8')).equals(newKey)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const after = new SecretKeyring({ db: d.db, configured: newKey, keyFile: null });
    const row = (await d.db.query('SELECT * FROM webhooks'))[0] as never;
    const secretsAfter = await webhooks(after).signingSecrets(row, clock.now());
    expect(secretsAfter).toEqual(secretsBefore);
    await expect(webhooks(before).get(account.id, hook.id)).rejects.toThrow(/could not be opened/);
    // A delivery signed with the re-opened secret verifies against the secret the receiver was given.
    const receiverSecret = (await webhooks(after).get(account.id, hook.id)).secret;
    expect(receiverSecret).toBe(secretsBefore[0]);
    const body = '{"data":{}}';
    // The receiver's library checks the timestamp against its own clock: the attempt is signed now.
    const headers = signatureHeaders({ id: 'msg_1', timestamp: new Date(), body, secrets: secretsAfter, referenceHeader: false });
    expect(new Webhook(receiverSecret).verify(body, headers)).toEqual({ data: {} });
    expect(headers[SIGNATURE_HEADER]).toBe(hexSignature(receiverSecret, body));
    const setting = (await d.db.query<{ value: string }>("SELECT value FROM settings WHERE key = 'oauth_signing_jwk'"))[0]!;
    expect(unseal(newKey, setting.value)).toBe('{"kty":"EC"}');
    const records = await d.db.query<{ payload: Record<string, string> }>('SELECT payload FROM oauth_records ORDER BY id_sha256');
    expect(unseal(newKey, records[0]!.payload.client_secret_sealed!)).toBe('client-secret');
    expect(unseal(newKey, records[1]!.payload.jti_sealed!)).toBe('jti-1');
    expect(records[2]!.payload).toEqual({ plain: 1 });
  });
});

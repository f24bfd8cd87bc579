// Every value sealed with the installation's secret key, in one place: what a key rotation re-seals and what
// tells a start that a lost key would strand secrets. A new sealed column is added here too.
import type { Queryable } from '../db.js';
import type { OauthRecords, Webhooks } from '../schema.generated.js';

/** The legacy setting where versions before 0027 kept a generated secret key, inside the database it protects. */
export const LEGACY_SECRET_KEY_SETTING = 'secret_key';
/** The OAuth provider's signing key (a JWK), sealed. */
const OAUTH_SIGNING_KEY_SETTING = 'oauth_signing_jwk';
/** Fields of an oauth_records payload that hold sealed text. */
const OAUTH_SEALED_FIELDS = ['jti_sealed', 'client_secret_sealed'] as const;

/** One sealed value and how to write it back re-sealed. */
export interface SealedValue {
  where: string;
  sealed: string;
  write(q: Queryable, resealed: string): Promise<void>;
}

/** Whether anything is sealed at all (then a missing key would leave it unreadable). */
export async function anySealed(q: Queryable): Promise<boolean> {
  const rows = await q.query<{ any: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM webhooks)
         OR EXISTS (SELECT 1 FROM settings WHERE key = $1)
         OR EXISTS (SELECT 1 FROM oauth_records WHERE payload ?| $2::text[]) AS any`,
    [OAUTH_SIGNING_KEY_SETTING, [...OAUTH_SEALED_FIELDS]],
  );
  return rows[0]?.any === true;
}

/** Every sealed value, locked for update: call inside the transaction that writes them back. */
export async function sealedValuesForUpdate(tx: Queryable): Promise<SealedValue[]> {
  const out: SealedValue[] = [];
  const hooks = await tx.query<Pick<Webhooks, 'id' | 'secret_sealed' | 'previous_secret_sealed'>>(
    'SELECT id, secret_sealed, previous_secret_sealed FROM webhooks ORDER BY id FOR UPDATE',
  );
  for (const h of hooks) {
    out.push({
      where: `webhook ${h.id} signing secret`,
      sealed: h.secret_sealed,
      write: async (q, v) => void (await q.query('UPDATE webhooks SET secret_sealed = $2 WHERE id = $1', [h.id, v])),
    });
    if (h.previous_secret_sealed) {
      out.push({
        where: `webhook ${h.id} previous signing secret`,
        sealed: h.previous_secret_sealed,
        write: async (q, v) => void (await q.query('UPDATE webhooks SET previous_secret_sealed = $2 WHERE id = $1', [h.id, v])),
      });
    }
  }
  const signing = await tx.query<{ value: string }>('SELECT value FROM settings WHERE key = $1 FOR UPDATE', [OAUTH_SIGNING_KEY_SETTING]);
  if (signing[0]) {
    out.push({
      where: 'OAuth signing key',
      sealed: signing[0].value,
      write: async (q, v) =>
        void (await q.query('UPDATE settings SET value = $2 WHERE key = $1', [OAUTH_SIGNING_KEY_SETTING, JSON.stringify(v)])),
    });
  }
  const records = await tx.query<Pick<OauthRecords, 'model' | 'id_sha256'> & { payload: Record<string, unknown> }>(
    'SELECT model, id_sha256, payload FROM oauth_records WHERE payload ?| $1::text[] ORDER BY model, id_sha256 FOR UPDATE',
    [[...OAUTH_SEALED_FIELDS]],
  );
  for (const r of records) {
    for (const field of OAUTH_SEALED_FIELDS) {
      const sealed = r.payload[field];
      if (typeof sealed !== 'string') continue;
      out.push({
        where: `OAuth ${r.model} record ${field}`,
        sealed,
        write: async (q, v) =>
          void (await q.query(
            'UPDATE oauth_records SET payload = jsonb_set(payload, $3, to_jsonb($4::text)) WHERE model = $1 AND id_sha256 = $2',
            [r.model, r.id_sha256, [field], v],
          )),
      });
    }
  }
  return out;
}

export async function legacySecretKey(q: Queryable): Promise<string | undefined> {
  const rows = await q.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [LEGACY_SECRET_KEY_SETTING]);
  return rows[0]?.value;
}

export async function forgetLegacySecretKey(q: Queryable): Promise<void> {
  await q.query('DELETE FROM settings WHERE key = $1', [LEGACY_SECRET_KEY_SETTING]);
}

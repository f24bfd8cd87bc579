import type { Queryable } from '../db.js';
import { changed, changeTag } from './changes.js';
import type { SourceHealth } from '../schema.generated.js';

/** Keeps each source's answer once per distinct payload (re-fetching the same answer only moves last_fetched_at). */
export async function keepRawObservations(
  q: Queryable,
  rows: readonly {
    id: string;
    tracked_shipment_id: string;
    source_id: string;
    target: unknown;
    payload: unknown;
    payload_sha256: string;
    facts: unknown;
    fetched_at: Date;
  }[],
): Promise<void> {
  // One row per distinct answer: the same answer twice in one batch is kept once, with its latest fetch.
  const unique = new Map<string, (typeof rows)[number]>();
  for (const r of rows) {
    const key = `${r.tracked_shipment_id} ${r.source_id} ${r.payload_sha256}`;
    const seen = unique.get(key);
    unique.set(key, seen ? { ...seen, fetched_at: seen.fetched_at > r.fetched_at ? seen.fetched_at : r.fetched_at } : r);
  }
  if (unique.size === 0) return;
  await q.query(
    `INSERT INTO raw_observations (id, tracked_shipment_id, source_id, target, payload, payload_sha256, facts, first_fetched_at, last_fetched_at)
     SELECT x.id, x.tracked_shipment_id, x.source_id, x.target, x.payload, x.payload_sha256, x.facts, x.fetched_at, x.fetched_at
     FROM jsonb_to_recordset($1::jsonb) AS x (id uuid, tracked_shipment_id uuid, source_id text, target jsonb, payload jsonb,
       payload_sha256 text, facts jsonb, fetched_at timestamptz)
     ON CONFLICT (tracked_shipment_id, source_id, payload_sha256) DO UPDATE SET last_fetched_at = EXCLUDED.last_fetched_at`,
    [JSON.stringify([...unique.values()])],
  );
  changed(
    q,
    [...unique.values()].map((r) => changeTag.tracked(r.tracked_shipment_id)),
  );
}

/** Records one answer (or failure) of a source. */
export async function recordSourceHealth(q: Queryable, sourceId: string, error: string | null, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO source_health (source_id, last_attempt_at, last_success_at, last_failure_at, consecutive_failures, last_error)
     VALUES ($1, $2::timestamptz, CASE WHEN $3::text IS NULL THEN $2::timestamptz END,
       CASE WHEN $3::text IS NOT NULL THEN $2::timestamptz END, CASE WHEN $3::text IS NULL THEN 0 ELSE 1 END, $3::text)
     ON CONFLICT (source_id) DO UPDATE SET
       last_attempt_at = EXCLUDED.last_attempt_at,
       last_success_at = COALESCE(EXCLUDED.last_success_at, source_health.last_success_at),
       last_failure_at = COALESCE(EXCLUDED.last_failure_at, source_health.last_failure_at),
       consecutive_failures = CASE WHEN $3::text IS NULL THEN 0 ELSE source_health.consecutive_failures + 1 END,
       last_error = COALESCE($3::text, source_health.last_error)`,
    [sourceId, now, error],
  );
}

/**
 * Records the answers (or failures) of several sources, in the order they came, in one statement: each source
 * ends as if `recordSourceHealth` had been called for each answer in turn. Rows are written in source order,
 * so concurrent writers lock them in the same order.
 */
export async function recordSourceHealthMany(
  q: Queryable,
  outcomes: readonly { sourceId: string; error: string | null }[],
  now: Date,
): Promise<void> {
  const bySource = new Map<string, { ok: boolean; after_success: number; failed: number; error: string | null }>();
  for (const o of outcomes) {
    const s = bySource.get(o.sourceId) ?? { ok: false, after_success: 0, failed: 0, error: null };
    if (o.error === null) {
      s.ok = true;
      s.after_success = 0;
    } else {
      s.after_success++;
      s.failed++;
      s.error = o.error;
    }
    bySource.set(o.sourceId, s);
  }
  if (bySource.size === 0) return;
  const rows = [...bySource].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // consecutive_failures: the failures after the last success when there was one, else how many to add.
  await q.query(
    `INSERT INTO source_health (source_id, last_attempt_at, last_success_at, last_failure_at, consecutive_failures, last_error)
     SELECT x.source_id, $2::timestamptz, CASE WHEN x.ok THEN $2::timestamptz END, CASE WHEN x.failed > 0 THEN $2::timestamptz END,
       CASE WHEN x.ok THEN x.after_success ELSE x.failed END, x.error
     FROM jsonb_to_recordset($1::jsonb) AS x (source_id text, ok boolean, after_success integer, failed integer, error text, n integer)
     ORDER BY x.n
     ON CONFLICT (source_id) DO UPDATE SET
       last_attempt_at = EXCLUDED.last_attempt_at,
       last_success_at = COALESCE(EXCLUDED.last_success_at, source_health.last_success_at),
       last_failure_at = COALESCE(EXCLUDED.last_failure_at, source_health.last_failure_at),
       consecutive_failures = CASE WHEN EXCLUDED.last_success_at IS NOT NULL THEN EXCLUDED.consecutive_failures
         ELSE source_health.consecutive_failures + EXCLUDED.consecutive_failures END,
       last_error = COALESCE(EXCLUDED.last_error, source_health.last_error)`,
    [JSON.stringify(rows.map(([source_id, s], n) => ({ source_id, ...s, n }))), now],
  );
}

export interface SourceHealthRow extends SourceHealth {}

export async function listSourceHealth(q: Queryable): Promise<SourceHealthRow[]> {
  return q.query<SourceHealthRow>('SELECT * FROM source_health ORDER BY source_id');
}

/**
 * The stored AIS positions of the vessel with each IMO number from its `from` to `to`, oldest first, each naming
 * the index of its request (a vessel without a row has none). One query for all the requests.
 */
export async function vesselFixes(
  q: Queryable,
  requests: readonly { index: number; imo: string; from: Date }[],
  to: Date,
): Promise<{ index: number; at: Date; latitude: number; longitude: number; speed_knots: number | null }[]> {
  if (requests.length === 0) return [];
  return q.query(
    `SELECT x.index::int AS index, p."at", p.latitude, p.longitude, p.speed_knots
     FROM unnest($1::int[], $2::text[], $3::timestamptz[]) AS x (index, imo, "from")
     JOIN vessels v ON v.imo = x.imo
     JOIN vessel_positions p ON p.vessel_id = v.id AND p."at" >= x."from" AND p."at" <= $4
     ORDER BY x.index, p."at"`,
    [requests.map((r) => r.index), requests.map((r) => r.imo), requests.map((r) => r.from), to],
  );
}

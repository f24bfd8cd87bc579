// On-demand refreshes waiting for a job (migration 0029): one row per container, served fairly across accounts.
import { one, type Queryable } from '../db.js';
import type { ContainerRefreshes } from '../schema.generated.js';

export type ContainerRefreshRow = Pick<
  ContainerRefreshes,
  'container_id' | 'account_id' | 'tracked_shipment_id' | 'requested_at' | 'failures'
>;

/**
 * Records an on-demand refresh of the container unless one is already waiting (or being served) for it. True when
 * this call added it: the caller then enqueues the job that will serve it, in the same transaction.
 */
export async function requestContainerRefresh(
  q: Queryable,
  r: { containerId: string; accountId: string; trackedShipmentId: string; requestedAt: Date },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO container_refreshes (container_id, account_id, tracked_shipment_id, requested_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (container_id) DO NOTHING
     RETURNING container_id`,
    [r.containerId, r.accountId, r.trackedShipmentId, r.requestedAt],
  );
  return rows.length > 0;
}

/**
 * Takes the next refresh to serve for job `job` until `leaseUntil`: the rows the same job held before (pg-boss
 * retrying it after a crash) if any; else the oldest free row of the account whose turn came longest ago (never
 * first), with every other free row of the same tracked shipment (one refresh serves them all). Records the
 * account's turn. Rows other jobs hold are skipped, never waited for. [] when nothing is free.
 */
export async function takeContainerRefreshes(q: Queryable, job: string, wallNow: Date, leaseUntil: Date): Promise<ContainerRefreshRow[]> {
  const mine = await q.query<ContainerRefreshRow>(
    `UPDATE container_refreshes SET lease_until = $2 WHERE lease_job = $1
     RETURNING container_id, account_id, tracked_shipment_id, requested_at, failures`,
    [job, leaseUntil],
  );
  if (mine.length > 0) return mine;
  const next = await one<{ account_id: string; tracked_shipment_id: string }>(
    q,
    `SELECT r.account_id, r.tracked_shipment_id FROM container_refreshes r
       LEFT JOIN refresh_turns t ON t.account_id = r.account_id
     WHERE r.lease_until IS NULL OR r.lease_until < $1
     ORDER BY t.served NULLS FIRST, r.seq
     LIMIT 1
     FOR UPDATE OF r SKIP LOCKED`,
    [wallNow],
  );
  if (!next) return [];
  await q.query(
    `INSERT INTO refresh_turns (account_id, served) VALUES ($1, nextval('refresh_turn_seq'))
     ON CONFLICT (account_id) DO UPDATE SET served = EXCLUDED.served`,
    [next.account_id],
  );
  return q.query<ContainerRefreshRow>(
    `UPDATE container_refreshes SET lease_job = $2, lease_until = $4
     WHERE container_id IN (
       SELECT container_id FROM container_refreshes
       WHERE tracked_shipment_id = $1 AND (lease_until IS NULL OR lease_until < $3)
       FOR UPDATE SKIP LOCKED)
     RETURNING container_id, account_id, tracked_shipment_id, requested_at, failures`,
    [next.tracked_shipment_id, job, wallNow, leaseUntil],
  );
}

/** Whether any refresh waits at all (held or free). */
export async function anyContainerRefreshWaiting(q: Queryable): Promise<boolean> {
  return (await q.query('SELECT 1 FROM container_refreshes LIMIT 1')).length > 0;
}

/** The refreshes job `job` held are served: they are done. */
export async function finishContainerRefreshes(q: Queryable, job: string): Promise<number> {
  return (await q.query('DELETE FROM container_refreshes WHERE lease_job = $1 RETURNING container_id', [job])).length;
}

/**
 * Gives back what job `job` held, free for any job at once; with `failed`, counts a failure on each and deletes
 * those that reached `giveUpAfter` failures. Returns the rows given back and those given up.
 */
export async function releaseContainerRefreshes(
  q: Queryable,
  job: string,
  opts: { failed: boolean; giveUpAfter: number },
): Promise<{ released: number; givenUp: ContainerRefreshRow[] }> {
  const released = await q.query<ContainerRefreshRow>(
    `UPDATE container_refreshes SET lease_job = NULL, lease_until = NULL, failures = failures + $2
     WHERE lease_job = $1
     RETURNING container_id, account_id, tracked_shipment_id, requested_at, failures`,
    [job, opts.failed ? 1 : 0],
  );
  const givenUp = released.filter((r) => r.failures >= opts.giveUpAfter);
  if (givenUp.length > 0) {
    await q.query('DELETE FROM container_refreshes WHERE container_id = ANY($1::uuid[])', [givenUp.map((r) => r.container_id)]);
  }
  return { released: released.length - givenUp.length, givenUp };
}

// What the re-derivation after a change of the derivation rules reads and writes (services/rederive.ts): the one
// `derivation` row (0023) that says which rules the stored data was derived under and how far a re-derivation
// has got, and the stored snapshots it re-derives, a batch at a time under row locks.
import { one, type Queryable } from '../db.js';
import type { TrackedShipmentRow } from './tracking.js';
import type { Containers, Derivation } from '../schema.generated.js';

export interface DerivationRow extends Omit<Derivation, 'singleton'> {
  step: 'tracked' | 'shipments' | null;
}

/** The derivation row, unlocked. */
export async function readDerivation(q: Queryable): Promise<DerivationRow> {
  return (await one<DerivationRow>(q, 'SELECT * FROM derivation'))!;
}

/** The derivation row, locked until the transaction ends: re-derivation batches of several processes take turns. */
export async function lockDerivation(q: Queryable): Promise<DerivationRow> {
  return (await one<DerivationRow>(q, 'SELECT * FROM derivation FOR UPDATE'))!;
}

export async function saveDerivation(
  q: Queryable,
  row: Pick<DerivationRow, 'version' | 'target' | 'step' | 'after_id' | 'containers' | 'started_at' | 'finished_at'>,
): Promise<void> {
  await q.query(
    `UPDATE derivation SET version = $1, target = $2, step = $3, after_id = $4, containers = $5, started_at = $6,
       finished_at = $7`,
    [row.version, row.target, row.step, row.after_id, row.containers, row.started_at, row.finished_at],
  );
}

/** A tracked shipment's stored shipment and containers (the rest of its state is not read). */
export interface TrackedSnapshots {
  row: Pick<TrackedShipmentRow, 'id' | 'terminal_checked_at' | 'terminal_next_check_at' | 'rail_checked_at' | 'rail_next_check_at'>;
  shipment: unknown;
  containers: unknown;
}

/**
 * The next tracked shipments with a state after `afterId` in id order, locked until the transaction ends (a
 * refresh committing meanwhile waits, and then writes a state of its own made under the current rules).
 */
export async function lockTrackedSnapshotsAfter(q: Queryable, afterId: string | null, limit: number): Promise<TrackedSnapshots[]> {
  const rows = await q.query<TrackedSnapshots['row'] & { state_shipment: unknown; state_containers: unknown }>(
    `SELECT t.id, t.terminal_checked_at, t.terminal_next_check_at, t.rail_checked_at, t.rail_next_check_at,
       t.state->'shipment' AS state_shipment, t.state->'containers' AS state_containers
     FROM tracked_shipments t
     WHERE t.state IS NOT NULL AND ($1::uuid IS NULL OR t.id > $1::uuid)
     ORDER BY t.id LIMIT $2
     FOR UPDATE`,
    [afterId, limit],
  );
  return rows.map(({ state_shipment, state_containers, ...row }) => ({
    row,
    shipment: state_shipment,
    containers: state_containers,
  }));
}

/** Replaces the containers of tracked shipments' states (the rest of each state is left as it is). */
export async function saveTrackedContainers(q: Queryable, rows: readonly { id: string; containers: unknown }[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `UPDATE tracked_shipments t SET state = jsonb_set(t.state, '{containers}', x.containers)
     FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, containers jsonb)
     WHERE t.id = x.id`,
    [JSON.stringify(rows)],
  );
}

/**
 * The next account shipments after `afterId` in id order that no projection writes: stopped ones (by the user or
 * by themselves) and those that follow no tracked shipment. Each with its stored shipment snapshot.
 */
export async function unprojectedShipmentsAfter(
  q: Queryable,
  afterId: string | null,
  limit: number,
): Promise<{ id: string; account_id: string; snapshot: unknown }[]> {
  return q.query(
    `SELECT s.id, s.account_id, s.snapshot FROM shipments s
     WHERE (s.tracked_shipment_id IS NULL OR s.line_tracking_stopped_at IS NOT NULL) AND ($1::uuid IS NULL OR s.id > $1::uuid)
     ORDER BY s.id LIMIT $2`,
    [afterId, limit],
  );
}

export interface StoredContainer
  extends Pick<
    Containers,
    'shipment_id' | 'number' | 'snapshot' | 'terminal_checked_at' | 'terminal_next_check_at' | 'rail_checked_at' | 'rail_next_check_at'
  > {}

/** These shipments' containers, locked until the transaction ends. */
export async function lockContainersOf(q: Queryable, shipmentIds: readonly string[]): Promise<StoredContainer[]> {
  if (shipmentIds.length === 0) return [];
  return q.query<StoredContainer>(
    `SELECT shipment_id, number, snapshot, terminal_checked_at, terminal_next_check_at, rail_checked_at, rail_next_check_at
     FROM containers WHERE shipment_id = ANY($1::uuid[]) ORDER BY shipment_id, number
     FOR UPDATE`,
    [shipmentIds],
  );
}

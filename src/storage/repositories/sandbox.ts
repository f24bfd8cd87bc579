import { one, type Queryable } from '../db.js';
import type { SandboxClock, SandboxStories } from '../schema.generated.js';

export interface SandboxClockRow {
  baseWorldAt: SandboxClock['base_world_at'];
  baseWallAt: SandboxClock['base_wall_at'];
  speed: SandboxClock['speed'];
  /** The target of the last advance while it runs or when it stopped short of it; null once one reached it. */
  advanceTargetAt: SandboxClock['advance_target_at'];
  /** How far that advance got: the world time up to which everything due was refreshed. */
  advanceReachedAt: SandboxClock['advance_reached_at'];
}

export interface SandboxStoryRow {
  id: SandboxStories['id'];
  seed: SandboxStories['seed'];
  scac: SandboxStories['scac'];
  numberType: 'bill_of_lading' | 'booking_number' | 'container';
  number: SandboxStories['number'];
  anchorAt: SandboxStories['anchor_at'];
}

const CLOCK_COLUMNS =
  'base_world_at AS "baseWorldAt", base_wall_at AS "baseWallAt", speed, advance_target_at AS "advanceTargetAt", advance_reached_at AS "advanceReachedAt"';
const STORY_COLUMNS = 's.id, s.seed, s.scac, s.number_type AS "numberType", s.number, s.anchor_at AS "anchorAt"';

export async function getClock(q: Queryable): Promise<SandboxClockRow | undefined> {
  return one<SandboxClockRow>(q, `SELECT ${CLOCK_COLUMNS} FROM sandbox_clock WHERE id = 1`);
}

/** Creates the clock at `world` if there is none; returns the stored one either way. */
export async function ensureClock(q: Queryable, world: Date, wall: Date, speed: number): Promise<SandboxClockRow> {
  await q.query(
    `INSERT INTO sandbox_clock (id, base_world_at, base_wall_at, speed, updated_at) VALUES (1, $1, $2, $3, $2)
     ON CONFLICT (id) DO NOTHING`,
    [world, wall, speed],
  );
  const row = await getClock(q);
  if (!row) throw new Error('sandbox clock row missing right after insert');
  return row;
}

/** Re-bases the clock: from `wall` on, world time runs from `world` at `speed`. */
export async function setClock(q: Queryable, world: Date, wall: Date, speed: number): Promise<SandboxClockRow> {
  const rows = await q.query<SandboxClockRow>(
    `UPDATE sandbox_clock SET base_world_at = $1, base_wall_at = $2, speed = $3, updated_at = $2 WHERE id = 1
     RETURNING ${CLOCK_COLUMNS}`,
    [world, wall, speed],
  );
  if (!rows[0]) throw new Error('sandbox clock row missing');
  return rows[0];
}

/** The advisory lock key of the advance: one walk of the world at a time. */
const ADVANCE_LOCK = 7_310_552_101;

/**
 * Records an advance's progress: its target and how far it got (both null: the last advance reached its target).
 * With `holderPid` (a server), only while that backend still holds the advance lock, checked in the same statement,
 * so a walker that lost its lock cannot overwrite what the next one wrote; false when it did not write.
 */
export async function recordAdvance(q: Queryable, target: Date | null, reached: Date | null, holderPid: number | null): Promise<boolean> {
  const rows = await q.query(
    `UPDATE sandbox_clock SET advance_target_at = $1, advance_reached_at = $2
     WHERE id = 1 AND ($3::int IS NULL OR EXISTS (
       SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = $3
         AND ((classid::bigint << 32) | objid::bigint) = $4 AND objsubid = 1))
     RETURNING id`,
    [target, reached, holderPid, ADVANCE_LOCK],
  );
  return rows.length === 1;
}

/**
 * Takes the advance lock for the transaction `tx` runs in, unless another session holds it; the holding backend's
 * pid when taken, else null.
 * It is released when that transaction ends, or when its connection or process dies.
 */
export async function tryAdvanceLock(tx: Queryable): Promise<number | null> {
  const rows = await tx.query<{ taken: boolean; pid: number }>('SELECT pg_try_advisory_xact_lock($1) AS taken, pg_backend_pid() AS pid', [
    ADVANCE_LOCK,
  ]);
  return rows[0]?.taken ? rows[0].pid : null;
}

/** Whether some session holds the advance lock of this database now (pg_locks lists the whole server's). */
export async function advanceLockHeld(q: Queryable): Promise<boolean> {
  const rows = await q.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
       AND ((classid::bigint << 32) | objid::bigint) = $1 AND objsubid = 1
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
    [ADVANCE_LOCK],
  );
  return rows[0]?.held === true;
}

export async function findStory(
  q: Queryable,
  key: { seed: string; scac: string; numberType: string; number: string },
): Promise<SandboxStoryRow | undefined> {
  return one<SandboxStoryRow>(
    q,
    `SELECT ${STORY_COLUMNS} FROM sandbox_stories s WHERE s.seed = $1 AND s.scac = $2 AND s.number_type = $3 AND s.number = $4`,
    [key.seed, key.scac, key.numberType, key.number],
  );
}

/**
 * The story of this number, anchored at `anchorAt` unless it was anchored before; concurrent first
 * sightings agree on one anchor. `containers` are indexed to the story when no earlier story holds them.
 */
export async function anchorStory(
  q: Queryable,
  key: { seed: string; scac: string; numberType: string; number: string },
  anchorAt: Date,
  wall: Date,
): Promise<SandboxStoryRow> {
  await q.query(
    `INSERT INTO sandbox_stories (seed, scac, number_type, number, anchor_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT ON CONSTRAINT sandbox_stories_key DO NOTHING`,
    [key.seed, key.scac, key.numberType, key.number, anchorAt, wall],
  );
  const row = await findStory(q, key);
  if (!row) throw new Error('sandbox story missing right after insert');
  return row;
}

export async function indexContainers(q: Queryable, seed: string, storyId: number, containers: readonly string[]): Promise<void> {
  if (containers.length === 0) return;
  await q.query(
    `INSERT INTO sandbox_containers (seed, container_number, story_id)
     SELECT $1, c, $2 FROM unnest($3::text[]) AS c
     ON CONFLICT (seed, container_number) DO NOTHING`,
    [seed, storyId, [...containers]],
  );
}

export async function storyOfContainer(q: Queryable, seed: string, containerNumber: string): Promise<SandboxStoryRow | undefined> {
  return one<SandboxStoryRow>(
    q,
    `SELECT ${STORY_COLUMNS} FROM sandbox_containers c JOIN sandbox_stories s ON s.id = c.story_id
     WHERE c.seed = $1 AND c.container_number = $2`,
    [seed, containerNumber],
  );
}

/** Records that the story carries this bill of lading; the first story to claim a number keeps it. */
export async function indexDocument(q: Queryable, seed: string, scac: string, documentNumber: string, storyId: number): Promise<void> {
  await q.query(
    `INSERT INTO sandbox_documents (seed, scac, document_number, story_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (seed, scac, document_number) DO NOTHING`,
    [seed, scac, documentNumber, storyId],
  );
}

export async function storyOfDocument(
  q: Queryable,
  seed: string,
  scac: string,
  documentNumber: string,
): Promise<SandboxStoryRow | undefined> {
  return one<SandboxStoryRow>(
    q,
    `SELECT ${STORY_COLUMNS} FROM sandbox_documents d JOIN sandbox_stories s ON s.id = d.story_id
     WHERE d.seed = $1 AND d.scac = $2 AND d.document_number = $3`,
    [seed, scac, documentNumber],
  );
}

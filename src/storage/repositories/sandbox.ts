import { one, type Queryable } from '../db.js';

export interface SandboxClockRow {
  baseWorldAt: Date;
  baseWallAt: Date;
  speed: number;
  advancingUntil: Date | null;
}

export interface SandboxStoryRow {
  id: number;
  seed: string;
  scac: string;
  numberType: 'bill_of_lading' | 'booking_number' | 'container';
  number: string;
  anchorAt: Date;
}

const CLOCK_COLUMNS = 'base_world_at AS "baseWorldAt", base_wall_at AS "baseWallAt", speed, advancing_until AS "advancingUntil"';
const STORY_COLUMNS = 's.id, s.seed, s.scac, s.number_type AS "numberType", s.number, s.anchor_at AS "anchorAt"';

export async function getClock(q: Queryable): Promise<SandboxClockRow | undefined> {
  return one<SandboxClockRow & Record<string, unknown>>(q, `SELECT ${CLOCK_COLUMNS} FROM sandbox_clock WHERE id = 1`);
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
  const rows = await q.query<SandboxClockRow & Record<string, unknown>>(
    `UPDATE sandbox_clock SET base_world_at = $1, base_wall_at = $2, speed = $3, updated_at = $2 WHERE id = 1
     RETURNING ${CLOCK_COLUMNS}`,
    [world, wall, speed],
  );
  if (!rows[0]) throw new Error('sandbox clock row missing');
  return rows[0];
}

/** Takes the advance lease unless another live one is held; true when taken. */
export async function takeAdvanceLease(q: Queryable, wall: Date, until: Date): Promise<boolean> {
  const rows = await q.query(
    `UPDATE sandbox_clock SET advancing_until = $2
     WHERE id = 1 AND (advancing_until IS NULL OR advancing_until < $1) RETURNING id`,
    [wall, until],
  );
  return rows.length === 1;
}

export async function releaseAdvanceLease(q: Queryable): Promise<void> {
  await q.query('UPDATE sandbox_clock SET advancing_until = NULL WHERE id = 1');
}

export async function findStory(
  q: Queryable,
  key: { seed: string; scac: string; numberType: string; number: string },
): Promise<SandboxStoryRow | undefined> {
  return one<SandboxStoryRow & Record<string, unknown>>(
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
  return one<SandboxStoryRow & Record<string, unknown>>(
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
  return one<SandboxStoryRow & Record<string, unknown>>(
    q,
    `SELECT ${STORY_COLUMNS} FROM sandbox_documents d JOIN sandbox_stories s ON s.id = d.story_id
     WHERE d.seed = $1 AND d.scac = $2 AND d.document_number = $3`,
    [seed, scac, documentNumber],
  );
}

// The batched writes of a refresh end where the one-by-one writes would: source health after a batch of
// answers is what recording each answer in turn gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../test/kit/databases.js';
import { recordSourceHealth, recordSourceHealthMany } from './tracking.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(() => t.drop());

const at = new Date('2026-03-01T12:00:00Z');
const ok = null;
const down = (n: number) => `unavailable: attempt ${n}`;

/** Source health of `id` without its id, as comparable JSON. */
async function health(id: string): Promise<unknown> {
  const [row] = await t.db.query('SELECT * FROM source_health WHERE source_id = $1', [id]);
  if (!row) return null;
  const { source_id: _id, ...rest } = row;
  return rest;
}

describe('recordSourceHealthMany', () => {
  const histories: (string | null)[][] = [
    [],
    [ok],
    [down(1)],
    [down(1), down(2)],
    [ok, down(1), down(2)],
    [down(1), ok],
    [down(1), ok, down(2), ok],
  ];
  const batches: (string | null)[][] = [
    [ok],
    [down(3)],
    [down(3), down(4)],
    [ok, down(3)],
    [down(3), ok],
    [ok, ok],
    [down(3), ok, down(4)],
  ];

  it('leaves each source as recording its answers one by one would', async () => {
    let n = 0;
    for (const history of histories) {
      for (const batch of batches) {
        const one = `one:${n}`;
        const many = `many:${n++}`;
        for (const error of history) {
          await recordSourceHealth(t.db, one, error, at);
          await recordSourceHealth(t.db, many, error, at);
        }
        const later = new Date(at.getTime() + 60_000);
        for (const error of batch) await recordSourceHealth(t.db, one, error, later);
        // The batch interleaves another source's answers, as a batch of refreshes does.
        await recordSourceHealthMany(
          t.db,
          batch.flatMap((error) => [
            { sourceId: many, error },
            { sourceId: 'other', error: ok },
          ]),
          later,
        );
        expect(await health(many), `history ${JSON.stringify(history)}, batch ${JSON.stringify(batch)}`).toEqual(await health(one));
      }
    }
  });
});

import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../test/kit/app.js';
import { freshDatabase, type TestDatabase } from '../test/kit/databases.js';
import { jobDefinitions, makeServices } from './compose.js';
import { FixedClock } from './domain/clock.js';
import { JobQueue } from './workers/queue.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(() => t.drop());

describe('maintenance jobs', () => {
  it('prunes rate-limit buckets that can no longer count', async () => {
    const clock = new FixedClock('2026-03-01T12:00:00Z');
    const services = makeServices(testConfig(), t.db, { wall: clock, world: clock });
    const now = clock.now().getTime();
    await t.db.query('INSERT INTO rate_limit_windows (key, window_start, count) VALUES ($1, $2, 5), ($1, $3, 7)', [
      'k',
      now - 10 * 60_000,
      now - 30_000,
    ]);
    const queue = await JobQueue.start(t.db, jobDefinitions(services), { logger: pino({ level: 'silent' }), supervise: false });
    try {
      await t.db.transaction((tx) => queue.enqueue(tx, 'maintenance.prune_rate_limits', {}));
      expect(await queue.runOnce()).toEqual({ completed: 1, failed: 0 });
    } finally {
      await queue.stop(1000);
    }
    expect(await t.db.query('SELECT count FROM rate_limit_windows')).toEqual([{ count: 7 }]);
  });
});

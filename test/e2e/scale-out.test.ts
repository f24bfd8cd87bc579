// Several Tidemark processes on one PostgreSQL server (runs when TEST_DATABASE_URL is set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Server } from '../kit/cli.js';
import { freshDatabase, onServer, type TestDatabase } from '../kit/databases.js';

describe.skipIf(!onServer())('scale-out on PostgreSQL', () => {
  let database: TestDatabase;
  const servers: Server[] = [];
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await database.drop();
  });

  it('two API processes and a worker start together, create one account, and share the rate budget', { timeout: 120_000 }, async () => {
    const env = { DATABASE_URL: database.url! };
    servers.push(
      ...(await Promise.all([
        startServer(['--roles', 'api'], env),
        startServer(['--roles', 'api'], env),
        startServer(['--roles', 'worker', '--port', '0'], env),
      ])),
    );
    const [a, b] = servers as [Server, Server, Server];
    const firstStarts = servers.filter((s) => s.apiKey);
    expect(firstStarts).toHaveLength(1);
    const key = firstStarts[0]!.apiKey!;
    const accounts = await database.db.query('SELECT name FROM accounts');
    expect(accounts).toEqual([{ name: 'operator' }]);

    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const target = i % 2 === 0 ? a : b;
      statuses.push((await fetch(`${target.url}/v2/shipments`, { headers: { authorization: `Token ${key}` } })).status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    for (const target of [a, b]) {
      const over = await fetch(`${target.url}/v2/shipments`, { headers: { authorization: `Token ${key}` } });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    for (const s of servers) expect(await s.stop('SIGTERM')).toBe(0);
  });
});

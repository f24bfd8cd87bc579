// An upgrade over data derived under older rules, end to end: `tidemark start` (the API and a worker, as `npm start`
// runs them) re-derives it by itself before its worker works, and `tidemark rederive` then finds nothing to do. On a
// PGlite data directory, or on the PostgreSQL server of TEST_DATABASE_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { AccountService } from '../../src/services/accounts.js';
import type { Db } from '../../src/storage/db.js';
import { migrate } from '../../src/storage/migrate.js';
import { PgliteDb } from '../../src/storage/pglite.js';
import { DERIVATION_VERSION } from '../../src/tracking/derivation.js';
import { startServer, tidemark } from '../kit/cli.js';
import { freshDatabase, onServer, type TestDatabase } from '../kit/databases.js';
import { AT_SEA, insertAccountShipment, insertTrackedShipment, oldState, SAILING } from '../kit/old-derivation.js';
import { until } from '../kit/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'tidemark-rederive-'));
let database: TestDatabase | null = null;
afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the first start after an upgrade', () => {
  it('re-derives what older rules derived before the worker works, serving the API; tidemark rederive then has nothing to do', {
    timeout: 180_000,
  }, async () => {
    let db: Db;
    let where: string[] = [];
    let env: Record<string, string> = { TIDEMARK_SANDBOX: 'off' };
    if (onServer()) {
      database = await freshDatabase();
      db = database.db;
      env = { ...env, DATABASE_URL: database.url! };
    } else {
      const dataDir = join(dir, 'data');
      db = await PgliteDb.open(dataDir, 'test seed');
      await migrate(db);
      where = ['--data-dir', dataDir];
    }
    // A box at sea stored as `not_available` (a terminal's word about a box it does not hold yet).
    const accounts = new AccountService(systemClock);
    const account = await accounts.create(db, { name: 'acme', plan: 'unlimited' });
    const { token } = await accounts.issueKey(db, account.id, 'test');
    const now = new Date();
    const tracked = await insertTrackedShipment(db, SAILING.bill_of_lading_number!, oldState(SAILING, [AT_SEA]), now);
    const shipmentId = await insertAccountShipment(db, {
      accountId: account.id,
      trackedId: tracked,
      shipment: SAILING,
      containers: [AT_SEA],
      now,
    });
    const [{ id: containerId }] = (await db.query<{ id: string }>('SELECT id FROM containers WHERE shipment_id = $1', [shipmentId])) as [
      { id: string },
    ];
    expect(await db.query('SELECT current_status FROM containers')).toEqual([{ current_status: 'not_available' }]);
    expect(await db.query('SELECT version FROM derivation')).toEqual([{ version: 0 }]);
    if (!database) await db.close();

    const server = await startServer([...where, '--roles', 'api,worker'], env);
    try {
      await until('the re-derivation done', 60_000, () => server.output().includes('"msg":"re-derivation done"'), 100);
      const res = await fetch(`${server.url}/v2/containers/${containerId}`, { headers: { authorization: `Token ${token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { attributes: Record<string, unknown> } };
      expect(body.data.attributes).toMatchObject({ current_status: 'on_ship', available_for_pickup: null });
      expect(await server.stop('SIGTERM')).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }

    const again = await tidemark(['rederive', ...where], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`Stored data is derived under the current rules (derivation version ${DERIVATION_VERSION}); nothing to do\n`);
    const forced = await tidemark(['rederive', '--force', ...where], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(
      new RegExp(`^Re-derived 1 containers of 1 tracked shipments in [0-9.]+ s; derivation version ${DERIVATION_VERSION}\\n$`),
    );
  });
});

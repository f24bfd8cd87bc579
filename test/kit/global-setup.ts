// Runs once per test run: builds the migrated template every database test clones.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgBoss, fromPglite } from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/storage/migrate.js';
import { PgDb } from '../../src/storage/pg.js';
import { PgliteDb } from '../../src/storage/pglite.js';

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'tidemark-test-'));
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // The database named in TEST_DATABASE_URL becomes the template: migrate it, then leave it alone.
    const template = new URL(url).pathname.slice(1);
    const db = new PgDb(url, { max: 2 });
    await migrate(db);
    const boss = new PgBoss({ connectionString: url, schema: 'pgboss', supervise: false, schedule: false });
    await boss.start();
    await boss.stop({ graceful: false, close: true });
    await db.close();
    project.provide('serverTemplate', template);
    project.provide('pgliteTemplate', '');
    return () => rmSync(dir, { recursive: true, force: true });
  }
  const db = await PgliteDb.memory();
  await migrate(db);
  const boss = new PgBoss({ db: fromPglite(db.pglite), backend: 'pglite', schema: 'pgboss', supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
  const dump = await db.pglite.dumpDataDir('none');
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplate', file);
  project.provide('serverTemplate', '');
  return () => rmSync(dir, { recursive: true, force: true });
}

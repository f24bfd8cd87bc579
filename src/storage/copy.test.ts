// The copy's storage steps on real databases (PGlite, and the server on the PostgreSQL pass): the schema read from
// the catalog, rows of every awkward kind carried over as the same values, and digests that tell a difference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../test/kit/databases.js';
import {
  copyRows,
  dependencyOrder,
  readSchema,
  readSequences,
  type SchemaShape,
  STABLE_TEXT_SETTINGS,
  shapeDifferences,
  type TableShape,
  tableDigest,
  writeSequences,
} from './copy.js';
import type { Queryable } from './db.js';

describe('dependencyOrder', () => {
  const cases: { name: string; tables: string[]; fks: [string, string][]; order: string[] | RegExp }[] = [
    { name: 'no keys: by name', tables: ['c', 'a', 'b'], fks: [], order: ['a', 'b', 'c'] },
    {
      name: 'a chain',
      tables: ['events', 'accounts', 'shipments'],
      fks: [
        ['events', 'shipments'],
        ['shipments', 'accounts'],
      ],
      order: ['accounts', 'shipments', 'events'],
    },
    { name: 'a referenced table first, the rest by name', tables: ['z', 'b', 'a'], fks: [['a', 'z']], order: ['b', 'z', 'a'] },
    {
      name: 'two keys to one table count once',
      tables: ['a', 'b'],
      fks: [
        ['a', 'b'],
        ['a', 'b'],
      ],
      order: ['b', 'a'],
    },
    { name: 'a key to a table not copied is ignored', tables: ['a'], fks: [['a', 'elsewhere']], order: ['a'] },
    { name: 'a table referencing itself has no order', tables: ['a', 'b'], fks: [['b', 'b']], order: /b form a cycle/ },
    {
      name: 'a cycle names its tables',
      tables: ['a', 'b', 'c', 'd'],
      fks: [
        ['b', 'c'],
        ['c', 'b'],
        ['d', 'a'],
      ],
      order: /b, c form a cycle/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = () =>
        dependencyOrder(
          c.tables,
          c.fks.map(([from, to]) => ({ from, to })),
        );
      if (c.order instanceof RegExp) expect(run).toThrow(c.order);
      else expect(run()).toEqual(c.order);
    });
  }
});

describe('shapeDifferences', () => {
  const table = (name: string, columns: string[]): TableShape => ({
    name,
    columns,
    writable: columns,
    identityAlways: false,
    triggers: false,
  });
  const shape = (tables: TableShape[], sequences: string[] = []): SchemaShape => ({ tables, sequences });
  const source = shape([table('a', ['id', 'x']), table('b', ['id'])], ['s']);
  const cases: { name: string; target: SchemaShape; differences: string[] }[] = [
    { name: 'the same', target: source, differences: [] },
    { name: 'a table missing', target: shape([table('a', ['id', 'x'])], ['s']), differences: ['table b is missing on the target'] },
    { name: 'a table more', target: shape([...source.tables, table('c', ['id'])], ['s']), differences: ['table c is on the target only'] },
    {
      name: 'columns in another order',
      target: shape([table('a', ['x', 'id']), table('b', ['id'])], ['s']),
      differences: ['table a has other columns on the target'],
    },
    { name: 'a sequence missing', target: shape(source.tables), differences: ['sequence s is missing on the target'] },
  ];
  for (const c of cases) it(c.name, () => expect(shapeDifferences(source, c.target)).toEqual(c.differences));
});

describe('on real databases', () => {
  let from: TestDatabase;
  let to: TestDatabase;
  beforeAll(async () => {
    [from, to] = [await freshDatabase(), await freshDatabase()];
  });
  afterAll(async () => {
    await from?.drop();
    await to?.drop();
  });

  it('reads our tables from the catalog in foreign-key order, with their identity, generated columns and triggers', async () => {
    const shape = await readSchema(from.db);
    const names = shape.tables.map((t) => t.name);
    expect(names).not.toContain('schema_migrations');
    for (const t of ['accounts', 'api_keys', 'shipments', 'containers', 'transport_events', 'webhook_notifications', 'sandbox_clock']) {
      expect(names).toContain(t);
    }
    const comesBefore = (a: string, b: string) => expect(names.indexOf(a), `${a} before ${b}`).toBeLessThan(names.indexOf(b));
    comesBefore('accounts', 'api_keys');
    comesBefore('shipments', 'containers');
    comesBefore('containers', 'transport_events');
    comesBefore('account_events', 'webhook_notifications');
    comesBefore('webhook_notifications', 'webhook_notification_logs');
    const byName = new Map(shape.tables.map((t) => [t.name, t]));
    expect(byName.get('sandbox_stories')!.identityAlways).toBe(true);
    expect(byName.get('accounts')!.identityAlways).toBe(false);
    expect(byName.get('shipments')!.triggers).toBe(true);
    expect(byName.get('accounts')!.triggers).toBe(false);
    expect(shape.sequences).toEqual(expect.arrayContaining(['sandbox_stories_id_seq', 'refresh_turn_seq']));
  });

  const PROBE = `CREATE TABLE copy_probe (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    t text, at timestamptz, d date, n numeric, f double precision, j jsonb, list text[], b bytea, iv interval, flag boolean,
    u uuid, shout text GENERATED ALWAYS AS (upper(t)) STORED)`;
  const probe = async (db: Queryable) => {
    const shape = await readSchema(db);
    return shape.tables.find((t) => t.name === 'copy_probe')!;
  };
  const digest = (db: TestDatabase, table: TableShape) =>
    db.db.transaction(async (tx) => {
      for (const s of STABLE_TEXT_SETTINGS) await tx.query(s);
      return tableDigest(tx, table);
    });

  it('copies awkward values as the same values, in batches, and the digests agree; one changed value changes them', async () => {
    await from.db.exec(PROBE);
    await to.db.exec(PROBE);
    await from.db.query(
      `INSERT INTO copy_probe (t, at, d, n, f, j, list, b, iv, flag, u)
       SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE 'row ' || i || E' "quoted", \\\\back\\\\slash, new\\nline, ünïcødé ☃ ' || repeat('x', i % 50) END,
              '2026-03-01T12:00:00.123456Z'::timestamptz + i * interval '1 minute 0.000001 second',
              date '2026-01-31' + i, 12345.678901234567890123 * i, CASE WHEN i = 3 THEN 'Infinity'::float8 ELSE 0.1 * i END,
              jsonb_build_object('i', i, 'nested', jsonb_build_array(1.50, 'two', NULL, true), 'text', E'a"b\\\\c'),
              ARRAY['a', NULL, 'c,d', E'e"f'], decode(lpad(to_hex(i), 8, '0'), 'hex'), i * interval '1 day 2 hours',
              i % 2 = 0, gen_random_uuid()
         FROM generate_series(1, 1203) AS i`,
    );
    await from.db.query("SELECT setval('copy_probe_id_seq', 5000)");
    const table = await probe(from.db);
    expect(table.writable).not.toContain('shout');
    expect(table.identityAlways).toBe(true);

    const copied = await to.db.transaction((tx) => from.db.transaction((src) => copyRows(src, tx, table, 100)));
    expect(copied).toBe(1203);
    const [a, b] = [await digest(from, table), await digest(to, table)];
    expect(b).toEqual(a);
    expect(a.rows).toBe(1203);
    // Read back through each driver: the same values (the generated column computed again on the target).
    const read = (db: TestDatabase) => db.db.query('SELECT * FROM copy_probe ORDER BY id');
    expect(await read(to)).toEqual(await read(from));

    await writeSequences(to.db, await readSequences(from.db, ['copy_probe_id_seq']));
    expect(await readSequences(to.db, ['copy_probe_id_seq'])).toEqual([{ name: 'copy_probe_id_seq', lastValue: 5000, isCalled: true }]);

    await to.db.query("UPDATE copy_probe SET j = jsonb_set(j, '{i}', '0') WHERE id = 600");
    const changed = await digest(to, table);
    expect(changed.rows).toBe(1203);
    expect(changed.md5).not.toBe(a.md5);
  });
});

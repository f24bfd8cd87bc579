import { describe, expect, it } from 'vitest';
import type { CopyReport } from '../services/database-copy.js';
import { copySummary, displayUrl, targetUrl } from './copy-database.js';

describe('targetUrl', () => {
  const cases: { name: string; to?: string; env?: string; url?: string; refused?: RegExp }[] = [
    { name: '--to', to: 'postgres://u@db:5432/tidemark', url: 'postgres://u@db:5432/tidemark' },
    { name: 'DATABASE_URL when --to is not given', env: 'postgresql://u@db/t', url: 'postgresql://u@db/t' },
    { name: '--to over DATABASE_URL', to: 'postgres://a@x/one', env: 'postgres://b@y/two', url: 'postgres://a@x/one' },
    { name: 'neither', refused: /--to postgres:\/\/.*or set DATABASE_URL/ },
    { name: 'another scheme', to: 'mysql://u@db/t', refused: /must be a PostgreSQL server URL .*not mysql:/ },
    {
      name: 'not a URL, its text not repeated (it may hold a password)',
      to: 'host=db password=secret',
      refused: /not a URL: \(not a URL\)/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      if (c.refused) expect(() => targetUrl(c.to, c.env)).toThrow(c.refused);
      else expect(targetUrl(c.to, c.env)).toBe(c.url);
    });
  }
});

it('displayUrl hides the password', () => {
  expect(displayUrl('postgres://tidemark:s3cret@db.internal:5432/tidemark?sslmode=require')).toBe(
    'postgres://tidemark:***@db.internal:5432/tidemark?sslmode=require',
  );
  expect(displayUrl('postgres://postgres@127.0.0.1:5432/t')).toBe('postgres://postgres@127.0.0.1:5432/t');
});

describe('copySummary', () => {
  const report: CopyReport = {
    tables: [
      { name: 'shipments', rows: 2 },
      { name: 'accounts', rows: 1 },
    ],
    rows: 3,
    ms: 4210,
    pending: { trackingRequests: 1, notifications: 2, refreshes: 0 },
    secretKey: 'key-file',
    sealed: 3,
    sourceVersion: 'PostgreSQL 18.6 (PGlite 0.5.16)',
    targetVersion: 'PostgreSQL 15.20',
  };
  const where = { dataDir: '/srv/data', targetUrl: 'postgres://tm:pw@db/tm', keyFile: '/srv/data/secret-key' };

  it('says what was copied and checked, what waits, and how to switch with the key file', () => {
    expect(copySummary(report, where)).toBe(
      [
        'Copied 2 tables (3 rows) from /srv/data to postgres://tm:***@db/tm in 4.2 s.',
        "Checked: every table's row count and checksum are the same on both sides.",
        '  accounts   1',
        '  shipments  2',
        "Pending work carried over: 1 tracking request (attempted by the workers' sweep), 2 webhook notifications (sent by the workers' delivery), 0 on-demand refreshes (a job queued for each).",
        '',
        'To switch to the server:',
        '  1. Leave /srv/data as it is: it is your way back. Do not start Tidemark on it again, or the two drift apart.',
        '  2. Set DATABASE_URL=postgres://tm:***@db/tm in every process.',
        '  3. Set TIDEMARK_SECRET_KEY in every process to the key in /srv/data/secret-key: the copied secrets (3 sealed values) open with it only.',
        '     It prints with: tidemark secret-key export --data-dir /srv/data',
        '  4. Start: tidemark start (as many processes as you need: docs/operations.md "Running several processes").',
        '',
      ].join('\n'),
    );
  });

  it('with TIDEMARK_SECRET_KEY set, keeps that key', () => {
    const text = copySummary({ ...report, secretKey: 'configured' }, where);
    expect(text).toContain('  3. Set TIDEMARK_SECRET_KEY in every process to the key this copy ran with: the copied secrets open with it.');
    expect(text).not.toContain('secret-key export');
  });
});

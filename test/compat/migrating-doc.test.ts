// docs/migrating.md's table of the operations Tidemark does not serve lists exactly the operations
// test/compat/operations.ts marks not served, each with its method and the reference's path.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from './operations.js';

const PAGE = readFileSync(resolve(import.meta.dirname, '../../docs/migrating.md'), 'utf8');
const HEADING = '## Operations Tidemark does not serve';

describe('docs/migrating.md', () => {
  const start = PAGE.indexOf(HEADING);
  const end = PAGE.indexOf('\n## ', start + HEADING.length);
  const section = PAGE.slice(start, end === -1 ? undefined : end);

  it('has the section', () => {
    expect(start).toBeGreaterThan(-1);
  });

  it('lists the operations test/compat/operations.ts marks not served, and no other', () => {
    // Rows: | `GET /documents` | get-documents | why |
    const listed = [...section.matchAll(/^\| `(GET|POST|PATCH|DELETE) (\/[^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    const notServed = OPERATIONS.filter((o) => o.status === 'not served').map((o) => `${o.method} ${o.path}`);
    expect(listed.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...notServed].sort());
  });

  it('links the pages a migrating client needs', () => {
    for (const link of ['extensions.md', 'custom-fields.md', 'webhooks.md']) expect(PAGE).toContain(`](${link}`);
  });
});

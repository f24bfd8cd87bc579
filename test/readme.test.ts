// The README's "Sandbox numbers" table must list what GET /sandbox/examples serves.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxExamples } from '../src/sandbox/world/index.js';

describe('README', () => {
  const readme = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Sandbox numbers'), readme.indexOf('## Commands'));

  it.each(sandboxExamples().map((e) => [e.scenario, e]))('lists the sandbox number of %s', (_name, e) => {
    const row = section.split('\n').find((line) => line.startsWith(`| \`${e.scenario}\` |`));
    expect(row).toBeDefined();
    expect(row).toContain(`\`${e.request_number}\``);
    expect(row).toContain(e.scac ? `\`${e.scac}\`` : '(auto-detect)');
    expect(row).toContain(`| ${e.expected_outcome} |`);
  });
});

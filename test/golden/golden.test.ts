// The golden timelines of the named sandbox scenarios (test/kit/golden.ts): each scenario with a journey walked in
// 12-hour steps through the pure engine layer and compared with its committed file, test/golden/<scenario>.txt; the
// event → scenario and status → scenario tables of docs/sandbox.md, generated from them; and the promise that every
// webhook event (documents aside) and every derived status is produced by some named scenario.
// TIDEMARK_UPDATE_GOLDEN=1 rewrites the files and the tables; a changed golden file is a reviewed diff whose commit
// says why (docs/testing.md, "Golden timelines").
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxExamples } from '../../src/sandbox/world/index.js';
import {
  between,
  coverage,
  docsTables,
  EVENTS_TABLE_END,
  EVENTS_TABLE_START,
  GOLDEN_DIR,
  type GoldenResult,
  goldenPath,
  goldenTimeline,
  journeyExamples,
  readGolden,
  REQUIRED_EVENTS,
  REQUIRED_STATUSES,
  replaceBetween,
  SANDBOX_DOC,
  STATUS_TABLE_END,
  STATUS_TABLE_START,
  UPDATE_GOLDEN,
  writeGolden,
} from '../kit/golden.js';

const HOW = 'run `TIDEMARK_UPDATE_GOLDEN=1 npx vitest run test/golden/golden.test.ts` and review the diff';

// Pure: it runs once per CI run, on the PGlite pass, not again on the PostgreSQL one (TEST_DATABASE_URL set).
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('golden timelines of the named sandbox scenarios', () => {
  const examples = journeyExamples();
  const results = new Map<string, GoldenResult | { error: unknown }>();
  /** A scenario's timeline, walked once for all the tests; a world that throws fails that scenario's own test. */
  const attempt = (scenario: string) => {
    let r = results.get(scenario);
    if (!r) {
      try {
        r = goldenTimeline(examples.find((e) => e.scenario === scenario)!);
      } catch (error) {
        r = { error };
      }
      results.set(scenario, r);
    }
    return r;
  };
  const resultOf = (scenario: string): GoldenResult => {
    const r = attempt(scenario);
    if ('error' in r) throw r.error;
    return r;
  };
  /** The timelines that could be walked (the tables and the completeness check say what those produce). */
  const walked = () => examples.map((e) => attempt(e.scenario)).filter((r): r is GoldenResult => !('error' in r));

  it.each(examples.map((e) => e.scenario))('%s matches its golden timeline', (scenario) => {
    const { text } = resultOf(scenario);
    const path = goldenPath(scenario);
    if (UPDATE_GOLDEN) writeGolden(path, text);
    const golden = readGolden(path);
    expect(golden, `${path} is missing: ${HOW}`).not.toBeNull();
    expect(text, `the ${scenario} timeline changed: ${HOW}`).toBe(golden);
  });

  it('has no golden file of a scenario that is gone', () => {
    const names = new Set<string>(examples.map((e) => e.scenario));
    const stray = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.txt') && !names.has(f.slice(0, -4)));
    if (UPDATE_GOLDEN) for (const f of stray) rmSync(resolve(GOLDEN_DIR, f));
    else expect(stray, `golden files of no named scenario: ${HOW}`).toEqual([]);
  });

  describe('docs/sandbox.md', () => {
    const tables = () => docsTables(coverage(walked(), sandboxExamples()));

    it('has the event → scenario and status → scenario tables the golden timelines give', () => {
      const { events, statuses } = tables();
      let doc = readFileSync(SANDBOX_DOC, 'utf8');
      if (UPDATE_GOLDEN) {
        doc = replaceBetween(doc, EVENTS_TABLE_START, EVENTS_TABLE_END, events);
        doc = replaceBetween(doc, STATUS_TABLE_START, STATUS_TABLE_END, statuses);
        writeFileSync(SANDBOX_DOC, doc);
      }
      expect(between(doc, EVENTS_TABLE_START, EVENTS_TABLE_END), `the event table of docs/sandbox.md: ${HOW}`).toBe(events);
      expect(between(doc, STATUS_TABLE_START, STATUS_TABLE_END), `the status table of docs/sandbox.md: ${HOW}`).toBe(statuses);
    });

    it('every webhook event (documents aside) and every derived status is produced by some named scenario', () => {
      const c = coverage(walked(), sandboxExamples());
      const missing = [
        ...REQUIRED_EVENTS.filter((e) => !c.events.has(e)).map((e) => `event ${e}`),
        ...REQUIRED_STATUSES.filter((s) => !c.statuses.has(s)).map((s) => `status ${s}`),
      ];
      expect(missing, `produced by no named scenario:\n  ${missing.join('\n  ')}`).toEqual([]);
    });
  });
});

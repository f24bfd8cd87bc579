// The reference folder beside the checkout (../shared/reference: DCSA's OpenAPI documents and sample payloads, the
// CSVs the compiled reference tables come from). The product never reads it; some tests compare with it. Without it
// they skip cleanly, so `npm test` passes in a clone that has only the repository; under
// TIDEMARK_REQUIRE_REFERENCE=1 (.ci/run sets it) a missing reference fails them instead of skipping them silently.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';

/**
 * The reference folder: `../shared/reference` beside the checkout, or TIDEMARK_REFERENCE_DIR (to point the tests at
 * another copy, or at nothing to see what a fresh clone does).
 */
export const REFERENCE_DIR = path.resolve(
  process.env.TIDEMARK_REFERENCE_DIR || path.resolve(import.meta.dirname, '../../../shared/reference'),
);

/** TIDEMARK_REQUIRE_REFERENCE=1: a missing reference fails the tests that read it instead of skipping them. */
export const REQUIRE_REFERENCE = process.env.TIDEMARK_REQUIRE_REFERENCE === '1';

/** A file or folder of the reference and whether it is there. */
export interface ReferencePath {
  /** Absolute. */
  path: string;
  /** Relative to the reference folder, for messages. */
  name: string;
  present: boolean;
}

/** A file or folder of the reference (`data/dcsa/tnt-2.2/…`). */
export function reference(relative: string): ReferencePath {
  const p = path.join(REFERENCE_DIR, relative);
  return { path: p, name: relative, present: existsSync(p) };
}

function missing(ref: ReferencePath): string {
  return `the reference ${ref.name} is not at ${ref.path} (clone the shared reference beside the checkout, or set TIDEMARK_REFERENCE_DIR)`;
}

/**
 * A suite that reads the reference. Its body runs only when `ref` is there (a skipped describe still runs its body,
 * so the body may read the reference at once). Without it: one skipped test that says what is missing, or, under
 * TIDEMARK_REQUIRE_REFERENCE=1, one failing test that says so.
 */
export function describeWithReference(ref: ReferencePath, name: string, body: () => void): void {
  if (ref.present) {
    describe(name, body);
    return;
  }
  describe(name, () => {
    if (REQUIRE_REFERENCE) {
      it('has the reference it compares with (TIDEMARK_REQUIRE_REFERENCE=1)', () => {
        throw new Error(`TIDEMARK_REQUIRE_REFERENCE=1 and ${missing(ref)}`);
      });
    } else {
      it.skip(`skipped: ${missing(ref)}`, () => {});
    }
  });
}

/** One test that reads the reference; skipped without it, failed under TIDEMARK_REQUIRE_REFERENCE=1 (see above). */
export function itWithReference(ref: ReferencePath, name: string, fn: () => void | Promise<void>): void {
  if (ref.present) it(name, fn);
  else if (REQUIRE_REFERENCE) {
    it(name, () => {
      throw new Error(`TIDEMARK_REQUIRE_REFERENCE=1 and ${missing(ref)}`);
    });
  } else it.skip(`${name} (skipped: ${missing(ref)})`, () => {});
}

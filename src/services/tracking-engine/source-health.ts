// How each source answered, recorded once a refresh's answers are in (for /metrics and operators).
import * as repo from '../../storage/repositories/tracking.js';
import type { EngineContext } from './context.js';
import type { SourcesAsked } from './fetch-sources.js';

/**
 * Records how each source answered, in a transaction of its own after the refreshes': health rows are shared
 * by every refresh of every worker, and a row written in a refresh's transaction would stay locked until that
 * commits, making concurrent refreshes wait for each other. Health is an operator's signal, not a promise, so
 * it is committed without waiting for the disk: a server crash may lose its last moment, which the next
 * answers record again.
 */
export async function recordHealth(ctx: EngineContext, asked: Readonly<SourcesAsked>): Promise<void> {
  if (asked.length === 0) return;
  const wall = ctx.clocks.wall.now();
  await ctx.db.transaction(async (tx) => {
    await tx.query('SET LOCAL synchronous_commit = off');
    await repo.recordSourceHealthMany(tx, asked, wall);
  });
}

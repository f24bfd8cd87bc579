// One refresh's findings before anything is written: the sources' answers (fetch-sources.ts), the stored AIS
// track of the POD vessel (ais-track.ts), and the pure core (normalize, detectChanges) run on all of it.
import type { SourceError, SourceObservation } from '../../sources/contract.js';
import type * as repo from '../../storage/repositories/tracking.js';
import { type DomainEvent, detectChanges, type StoredState } from '../../tracking/changes.js';
import { normalize } from '../../tracking/normalize.js';
import { aisTrackInputs } from './ais-track.js';
import { ALL_FEATURES, type EngineContext } from './context.js';
import { type ForceAsk, fetchSources, type SourcesAsked } from './fetch-sources.js';

/** What one refresh learned, before anything is written (was the engine's `Gathered`). */
export interface RefreshFindings {
  observations: SourceObservation[];
  /** Each source asked, and its error when it failed (a "not found" is an answer). */
  asked: SourcesAsked;
  carrier: SourceObservation | null;
  carrierError: SourceError | null;
  terminalAsked: boolean;
  railAsked: boolean;
  railScac: string | null;
  state: StoredState | null;
  events: DomainEvent[];
}

/** Fetches what is due from the carrier, the POD terminals and the railroad, and runs the pure core. */
export async function gather(
  ctx: EngineContext,
  tracked: repo.TrackedShipmentRow,
  worldNow: Date,
  opts: ForceAsk,
): Promise<RefreshFindings> {
  const [one] = await gatherAll(ctx, [tracked], worldNow, opts);
  if ('failed' in one!) throw one.failed;
  return one!;
}

/**
 * `gather` for several tracked shipments: their sources are asked side by side, the stored AIS tracks of
 * their vessels read in one query. Per item, what it gathered or why its fetch failed.
 */
export async function gatherAll(
  ctx: EngineContext,
  trackeds: readonly repo.TrackedShipmentRow[],
  worldNow: Date,
  opts: ForceAsk,
): Promise<(RefreshFindings | { failed: unknown })[]> {
  const fetched = await Promise.all(trackeds.map((t) => fetchSources(ctx, t, worldNow, opts).catch((failed: unknown) => ({ failed }))));
  const ais = await aisTrackInputs(
    ctx.db,
    fetched.map((f) => ('failed' in f || !f.carrierOnly ? null : f.carrierOnly.state)),
    worldNow,
  );
  return fetched.map((f, i) => {
    if ('failed' in f) return f;
    const { carrierOnly, previous, terminals, rail, carrier, ...rest } = f;
    if (!carrierOnly) return { ...rest, carrier, state: previous, events: [] };
    // Nothing but the carrier's word: the result is the one already computed (the core is pure).
    const { events, state } =
      terminals.length === 0 && rail.length === 0 && ais[i] === null
        ? carrierOnly
        : detectChanges(previous, normalize({ carrier, terminals, rail, ais: ais[i] }, { worldNow }), {
            worldNow,
            accountFeatures: ALL_FEATURES,
          });
    return { ...rest, carrier, state, events };
  });
}

// Asking the sources about one tracked shipment: the carrier when it is due (or forced), then, from what the
// carrier's word says, the POD terminals and the railroad when theirs are due. Every source asked is noted for its
// health; our own per-source rate limit is taken before each request.
import { readStoredState } from '../../tracking/stored.js';
import { SourceError, type SourceObservation, type TrackTarget } from '../../sources/contract.js';
import { RAILROADS, terminalById, terminalNaturalKey } from '../../sources/reference/index.js';
import type { RegisteredSource, SourceRegistry } from '../../sources/registry.js';
import type * as repo from '../../storage/repositories/tracking.js';
import { type DomainEvent, detectChanges, type StoredState } from '../../tracking/changes.js';
import { normalize } from '../../tracking/normalize.js';
import { nextChecks } from '../../tracking/schedule.js';
import type { ContainerSnapshot, FacilityRef, ShipmentSnapshot } from '../../tracking/snapshot.js';
import { ALL_FEATURES, type EngineContext } from './context.js';

/** Each source asked, and its error when it failed (a "not found" is an answer). */
export type SourcesAsked = { sourceId: string; error: string | null }[];

/** Which sources to ask even when they are not due. */
export interface ForceAsk {
  forceLine?: boolean;
  forceYard?: boolean;
}

/** What the sources answered for one tracked shipment, before the pure core runs on all of it. */
export interface SourceAnswers {
  previous: StoredState | null;
  observations: SourceObservation[];
  asked: SourcesAsked;
  terminals: SourceObservation[];
  rail: SourceObservation[];
  terminalAsked: boolean;
  railAsked: boolean;
  railScac: string | null;
  carrier: SourceObservation | null;
  carrierError: SourceError | null;
  /** The pure core's result on the carrier's word alone; null when the carrier failed. */
  carrierOnly: { events: DomainEvent[]; state: StoredState } | null;
}

/** Asks the sources that are due; `carrierOnly` is the pure core's result on the carrier's word (null when it failed). */
export async function fetchSources(
  ctx: EngineContext,
  tracked: repo.TrackedShipmentRow,
  worldNow: Date,
  opts: ForceAsk,
): Promise<SourceAnswers> {
  const registry = ctx.registry();
  const previous = readStoredState(tracked.state);
  const now = worldNow.getTime();
  const due = (at: Date | null) => at === null || at.getTime() <= now;
  const answers: SourceAnswers = {
    previous,
    observations: [],
    asked: [],
    terminals: [],
    rail: [],
    terminalAsked: false,
    railAsked: false,
    railScac: tracked.rail_scac,
    carrier: null,
    carrierError: null,
    carrierOnly: null,
  };

  if (opts.forceLine || previous === null || due(tracked.line_next_check_at)) await askCarrier(ctx, registry, tracked, answers);
  if (answers.carrierError) return answers;

  // What we know with the carrier's word, to find the terminals and railroad to ask.
  const carrierOnly = detectChanges(previous, normalize({ carrier: answers.carrier, terminals: [], rail: [] }, { worldNow }), {
    worldNow,
    accountFeatures: ALL_FEATURES,
  });
  const withCarrier = carrierOnly.state;
  const checks = nextChecks(withCarrier.shipment, withCarrier.containers, worldNow);
  answers.terminalAsked = checks.terminal !== null && (opts.forceYard === true || due(tracked.terminal_next_check_at));
  answers.railAsked = checks.rail !== null && (opts.forceYard === true || due(tracked.rail_next_check_at));

  if (answers.terminalAsked) await askTerminals(ctx, registry, withCarrier, answers);
  if (answers.railAsked) await askRailroads(ctx, registry, withCarrier, answers);
  answers.observations.push(...answers.terminals, ...answers.rail);
  return { ...answers, carrierError: null, carrierOnly };
}

/** The carrier's answer, or why it failed (its failure is the request's or refresh's outcome). */
async function askCarrier(ctx: EngineContext, registry: SourceRegistry, tracked: repo.TrackedShipmentRow, answers: SourceAnswers) {
  const source = registry.carrier(tracked.scac);
  if (!source) {
    answers.carrierError = new SourceError('unavailable', `no source is configured for carrier ${tracked.scac}`);
    return;
  }
  const target: TrackTarget = { numberType: tracked.number_type, number: tracked.number, scac: tracked.scac };
  try {
    answers.carrier = await fetchRateLimited(ctx, source, target);
    answers.observations.push(answers.carrier);
    answers.asked.push({ sourceId: source.id, error: null });
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    answers.carrierError = err;
    answers.asked.push({ sourceId: source.id, error: sourceFailure(err) });
  }
}

/** Each box still at its POD: the first terminal to ask that knows it (see terminalKeysToAsk). */
async function askTerminals(ctx: EngineContext, registry: SourceRegistry, withCarrier: StoredState, answers: SourceAnswers) {
  for (const c of withCarrier.containers) {
    if (c.empty_terminated_at || c.pod_full_out_at) continue;
    for (const key of terminalKeysToAsk(c, withCarrier.shipment)) {
      const source = registry.terminal(key);
      if (!source) continue;
      const obs = await fetchQuietly(ctx, source, { numberType: 'container', number: c.number, facilityCode: key }, answers.asked);
      if (obs) {
        answers.terminals.push(obs);
        break;
      }
    }
  }
}

/** Each box on a rail move not yet out at its inland destination: the railroad that has it. */
async function askRailroads(ctx: EngineContext, registry: SourceRegistry, withCarrier: StoredState, answers: SourceAnswers) {
  for (const c of withCarrier.containers) {
    if (!c.rail_move || c.empty_terminated_at || c.final_destination_full_out_at) continue;
    // DCSA names no railroad: ask the one that answered before, else each Class I railroad in turn.
    const known = answers.railScac ?? c.pod_rail_carrier_scac ?? c.ind_rail_carrier_scac;
    for (const scac of known ? [known] : RAILROADS.map((r) => r.scac)) {
      const source = registry.railroad(scac);
      if (!source) continue;
      const obs = await fetchQuietly(ctx, source, { numberType: 'container', number: c.number, scac }, answers.asked);
      if (obs) {
        answers.rail.push(obs);
        answers.railScac = scac;
        break;
      }
    }
  }
}

/** A source's answer, within our own limit of requests a minute to it (a rate-limited SourceError past it). */
async function fetchRateLimited(ctx: EngineContext, source: RegisteredSource, target: TrackTarget): Promise<SourceObservation> {
  if (source.rateLimitPerMinute !== null) {
    const decision = await ctx.rateLimits.takeKeyed(`source:${source.id}`, source.rateLimitPerMinute);
    if (!decision.allowed) {
      throw new SourceError('rate_limited', `${source.id}: our limit of ${decision.limit} requests a minute is reached`, {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
  }
  return source.adapter.fetch(target, { signal: AbortSignal.timeout(30_000), now: () => ctx.clocks.wall.now() });
}

/** A terminal or rail answer, or null when the source does not know the container or fails (logged). */
async function fetchQuietly(
  ctx: EngineContext,
  source: RegisteredSource,
  target: TrackTarget,
  asked: SourcesAsked,
): Promise<SourceObservation | null> {
  try {
    const obs = await fetchRateLimited(ctx, source, target);
    asked.push({ sourceId: source.id, error: null });
    return obs;
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    asked.push({ sourceId: source.id, error: sourceFailure(err) });
    if (err.kind !== 'not_found') ctx.log?.warn({ err, source: source.id, number: target.number }, 'source failed');
    return null;
  }
}

/** A source failure worth recording against its health; answers about the number (not found…) are not. */
function sourceFailure(err: SourceError): string | null {
  if (err.kind === 'not_found' || err.kind === 'awaiting_manifest' || err.kind === 'invalid_number' || err.kind === 'cancelled')
    return null;
  return `${err.kind}: ${err.message}`;
}

/**
 * The terminals to ask about a box, in order: the one that has it, else the one the line names; when the first no
 * longer knows the box (the line moved it to another terminal of the port), the line's is asked next.
 */
export function terminalKeysToAsk(c: ContainerSnapshot, shipment: ShipmentSnapshot | null): string[] {
  const own = terminalKey(c.pod_terminal ?? null);
  const line = terminalKey(shipment?.pod_terminal ?? null);
  return [...new Set([own, line])].filter((k): k is string => k !== null);
}

/** The key the terminal sources use for a POD terminal the sources named. */
function terminalKey(ref: FacilityRef | null): string | null {
  if (!ref) return null;
  const terminal = ref.id ? terminalById(ref.id) : undefined;
  if (terminal) return terminalNaturalKey(terminal);
  return ref.firmsCode ?? null;
}

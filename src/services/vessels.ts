// Vessels: named by carriers during refreshes (the engine calls `vesselsNamedIn` in its commit), located by
// the AIS source. Positions are gathered for vessels still carrying a tracked shipment to its POD, at most
// once an hour of domain time per vessel; the API serves what was gathered, never asking AIS itself.
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Clocks } from '../domain/clock.js';
import { notFound, TidemarkError, validationFailed } from '../domain/errors.js';
import { normalizeImo } from '../domain/imo.js';
import { isUuid } from '../lib/ids.js';
import type { LatLon } from '../lib/sea-routes/index.js';
import { SourceError, type SourceObservation } from '../sources/contract.js';
import type { SourceRegistry } from '../sources/registry.js';
import type { Db } from '../storage/db.js';
import { recordSourceHealth } from '../storage/repositories/tracking.js';
import * as repo from '../storage/repositories/vessels.js';
import type { StoredState } from '../tracking/changes.js';
import { predictPodEta, reportedLocode, SPEED_WINDOW_MS } from '../tracking/predicted-eta.js';
import {
  type EstimatedPosition,
  futurePositions,
  MAX_POSITIONS,
  POSITION_STEP_MS,
  RECENT_SPEED_WINDOW_MS,
  type RecentSpeed,
  recentSpeed,
  VoyageTooLongError,
} from './future-positions.js';
import { findPort, type PortPlace } from './places.js';
import { vesselId } from '../render/vessel.js';

export type { VesselPositionRow, VesselRow } from '../storage/repositories/vessels.js';
export { predictionReason } from '../tracking/predicted-eta.js';
export type { EstimatedPosition, RecentSpeed } from './future-positions.js';

/** Where a vessel is estimated to sail to a port, one position a minute (`GET /v2/vessels/{id}/future_positions…`). */
export interface FutureVoyage {
  vessel: repo.VesselRow;
  positions: EstimatedPosition[];
  port: PortPlace;
  previousPort: PortPlace | null;
  speed: RecentSpeed;
  distanceNm: number;
  arrivalAt: Date;
  /** `coordinates`: from the position asked; `last_position`: from the vessel's latest AIS position, at its time. */
  start: 'coordinates' | 'last_position';
}

/** AIS is asked about a vessel at most this often (domain time). */
export const POSITIONS_EVERY_MS = 3600_000;
/** Vessels asked about in one sweep; the rest wait for the next sweep (a few seconds later). */
const VESSELS_PER_SWEEP = 50;
/** Our own deadline per vessel, beyond the adapter's request timeout (which answers `unavailable` first). */
const AIS_DEADLINE_MS = 60_000;

export { normalizeImo };

export { vesselId };

/**
 * Every vessel a stored state names with an IMO number (the shipment's POD vessel, transport and estimated
 * events), each once, with the first name the carrier gave for it.
 */
export function vesselsNamedIn(state: StoredState): { id: string; imo: string; name: string | null }[] {
  const found = new Map<string, string | null>();
  const add = (rawImo: string | null | undefined, name: string | null | undefined) => {
    const imo = normalizeImo(rawImo);
    if (!imo) return;
    const clean = name?.trim() || null;
    if (!found.has(imo) || (found.get(imo) === null && clean)) found.set(imo, clean);
  };
  add(state.shipment?.pod_vessel_imo, state.shipment?.pod_vessel_name);
  for (const e of state.transportEvents) add(e.vessel_imo, e.vessel_name);
  for (const e of state.estimatedEvents) add(e.vessel_imo, e.vessel_name);
  return [...found].map(([imo, name]) => ({ id: vesselId(imo), imo, name }));
}

// Name and MMSI are not facts of the source contract; the AIS payload carries them beside the track.
const AisIdentity = z.looseObject({
  mmsi: z
    .string()
    .regex(/^\d{9}$/)
    .nullish(),
  name: z.string().trim().min(1).nullish(),
});

export interface VesselServiceDeps {
  db: Db;
  clocks: Clocks;
  /** The data sources; a function because the sandbox's URL is known only once the API listens. */
  registry: () => SourceRegistry;
  logger?: Logger;
  /**
   * Called after a sweep with the IMO numbers of the vessels whose history grew: the composition root hands
   * them to the tracking engine, which turns port calls into AIS transport events. Failures are logged.
   */
  onNewPositions?: (imos: string[], worldNow: Date) => Promise<unknown>;
}

export class VesselService {
  readonly #db: Db;
  readonly #clocks: Clocks;
  readonly #registry: () => SourceRegistry;
  readonly #log: Logger | undefined;
  readonly #onNewPositions: VesselServiceDeps['onNewPositions'];

  constructor(deps: VesselServiceDeps) {
    this.#onNewPositions = deps.onNewPositions;
    this.#db = deps.db;
    this.#clocks = deps.clocks;
    this.#registry = deps.registry;
    this.#log = deps.logger;
  }

  /** `GET /v2/vessels/{id or IMO}`: the wire id, or the IMO number (`9811000`, `IMO9811000`). */
  async get(key: string): Promise<repo.VesselRow> {
    const imo = isUuid(key) ? null : normalizeImo(key);
    const found = isUuid(key)
      ? await repo.findVesselById(this.#db, key.toLowerCase())
      : imo
        ? await repo.findVesselByImo(this.#db, imo)
        : undefined;
    if (!found) throw notFound('vessel');
    return found;
  }

  /** The positions gathered for a vessel in [from, to], oldest first. */
  positions(vessel: Pick<repo.VesselRow, 'id'>, from: Date, to: Date): Promise<repo.VesselPositionRow[]> {
    return repo.vesselPositions(this.#db, vessel.id, from, to);
  }

  /** The vessel's passage speed from its positions of the RECENT_SPEED_WINDOW_MS up to its latest one. */
  async recentSpeed(vessel: Pick<repo.VesselRow, 'id' | 'position_at'>): Promise<RecentSpeed> {
    if (!vessel.position_at) return recentSpeed([]);
    const to = vessel.position_at;
    return recentSpeed(await repo.vesselPositions(this.#db, vessel.id, new Date(to.getTime() - RECENT_SPEED_WINDOW_MS), to));
  }

  /**
   * The vessel's estimated positions, one a minute, along the sea route to the port `portKey` (id or
   * UN/LOCODE) at its recent speed: from `from` starting now (domain time), or without it from its latest
   * AIS position starting at that position's time. 404 for an unknown vessel or port (naming the
   * parameter), 422 when the vessel has no position to start from or the voyage is too long to list.
   */
  async futurePositions(key: string, ask: { portKey: string; previousPortKey?: string; from?: LatLon }): Promise<FutureVoyage> {
    const vessel = await this.get(key);
    const port = portParameter(ask.portKey, 'port_id');
    const previousPort = ask.previousPortKey === undefined ? null : portParameter(ask.previousPortKey, 'previous_port_id');
    let from = ask.from;
    let startAt = this.#clocks.world.now();
    if (!from) {
      if (vessel.latitude === null || vessel.longitude === null || !vessel.position_at) {
        const detail = 'The vessel has no known position yet; give a starting point with future_positions_with_coordinates';
        throw validationFailed([{ title: 'Unprocessable Entity', detail, code: 'no_position' }]);
      }
      from = { lat: vessel.latitude, lon: vessel.longitude };
      startAt = vessel.position_at;
    }
    const speed = await this.recentSpeed(vessel);
    try {
      const voyage = futurePositions({ from, to: { lat: port.latitude, lon: port.longitude }, speedKnots: speed.knots, startAt });
      return { vessel, port, previousPort, speed, ...voyage, start: ask.from ? 'coordinates' : 'last_position' };
    } catch (err) {
      if (!(err instanceof VoyageTooLongError)) throw err;
      const days = Math.floor((MAX_POSITIONS * POSITION_STEP_MS) / 86_400_000);
      const detail = `At ${speed.knots.toFixed(1)} knots the voyage to ${port.name} takes more than ${days} days, longer than the positions listed`;
      throw validationFailed([{ title: 'Unprocessable Entity', detail, parameter: 'port_id' }]);
    }
  }

  /** The stored vessels with these IMO numbers (for includes); IMOs without a row are left out. */
  byImos(imos: readonly string[]): Promise<repo.VesselRow[]> {
    return repo.findVesselsByImos(this.#db, [...new Set(imos)]);
  }

  /**
   * Predicts the arrival at the POD of every vessel with a position newer than its last prediction, for the PODs
   * that actively tracked shipments name (src/tracking/predicted-eta.ts); shipments show it as
   * `predicted_pod_eta_at`. None while the vessel's latest AIS destination is another port (it calls there
   * first). Runs after positions are gathered; returns how many predictions were made.
   */
  async predictArrivals(worldNow: Date = this.#clocks.world.now()): Promise<number> {
    const voyages = await repo.voyagesToPredict(this.#db, VESSELS_PER_SWEEP);
    for (const v of voyages) {
      const port = findPort(v.pod_locode);
      const history = await repo.vesselPositions(this.#db, v.vessel_id, new Date(v.position_at.getTime() - SPEED_WINDOW_MS), v.position_at);
      const positions = [
        ...history.map((p) => ({ latitude: p.latitude, longitude: p.longitude, at: p.at, speedKnots: p.speed_knots })),
        { latitude: v.latitude, longitude: v.longitude, at: v.position_at, speedKnots: v.speed_knots },
      ];
      const pod = port ? { latitude: port.latitude, longitude: port.longitude, name: port.name } : null;
      const eta = predictPodEta({ now: worldNow, positions, pod, boundFor: boundFor(v.destination), carrierEta: null, podArrivedAt: null });
      await repo.putVesselPodEta(
        this.#db,
        { imo: v.imo, podLocode: v.pod_locode, positionAt: v.position_at },
        eta && { predictedAt: eta.at, distanceNm: eta.distanceNm, speedKnots: eta.speedKnots },
        this.#clocks.wall.now(),
      );
    }
    return voyages.length;
  }

  /**
   * Asks the AIS source about every vessel still carrying an active tracked shipment to its POD that was not
   * asked within the hour, and stores what it says. Source failures are logged and recorded in source health,
   * never thrown: the sweep goes on with the next vessel. Returns how many vessels were asked.
   */
  async gatherPositions(worldNow: Date = this.#clocks.world.now()): Promise<number> {
    const ais = this.#registry().ais();
    if (!ais) return 0;
    const checkedBefore = new Date(worldNow.getTime() - POSITIONS_EVERY_MS);
    const due = await repo.vesselsDueForPositions(this.#db, checkedBefore, VESSELS_PER_SWEEP);
    let asked = 0;
    const grew: string[] = [];
    for (const vessel of due) {
      const wall = this.#clocks.wall.now();
      if (!(await repo.claimVesselForPositions(this.#db, vessel.id, checkedBefore, worldNow, wall))) continue;
      asked++;
      let observation: SourceObservation;
      const deadline = AbortSignal.timeout(AIS_DEADLINE_MS);
      try {
        observation = await ais.adapter.fetch(
          { numberType: 'vessel_imo', number: vessel.imo },
          { signal: deadline, now: () => this.#clocks.wall.now() },
        );
      } catch (err) {
        // Anything but a source error or our deadline is a bug: it surfaces, as in the tracking engine.
        if (!(err instanceof SourceError) && !deadline.aborted) throw err;
        // AIS not knowing a vessel is an answer, not a failure of the source.
        const failure =
          err instanceof SourceError
            ? err.kind === 'not_found'
              ? null
              : `${err.kind}: ${err.message}`
            : `unavailable: no answer within ${AIS_DEADLINE_MS} ms`;
        if (failure) this.#log?.warn({ err, source: ais.id, imo: vessel.imo }, 'AIS source failed');
        else this.#log?.debug({ source: ais.id, imo: vessel.imo }, 'no AIS track for vessel');
        await recordSourceHealth(this.#db, ais.id, failure, this.#clocks.wall.now());
        continue;
      }
      const identity = AisIdentity.safeParse(observation.payload);
      const positions = observation.facts.vesselPositions
        .filter((p) => p.imo === vessel.imo)
        .map((p) => ({
          at: new Date(p.at),
          latitude: p.latitude,
          longitude: p.longitude,
          speedKnots: p.speedKnots,
          headingDegrees: p.headingDegrees,
          destination: p.destination,
        }))
        .filter((p) => !Number.isNaN(p.at.getTime()))
        .sort((a, b) => a.at.getTime() - b.at.getTime());
      await this.#db.transaction(async (tx) => {
        const wall = this.#clocks.wall.now();
        const inserted = await repo.recordVesselPositions(
          tx,
          vessel.id,
          {
            mmsi: identity.success ? (identity.data.mmsi ?? null) : null,
            name: identity.success ? (identity.data.name ?? null) : null,
            positions,
          },
          wall,
        );
        if (inserted > 0) grew.push(vessel.imo);
        await recordSourceHealth(tx, ais.id, null, wall);
      });
    }
    if (grew.length > 0 && this.#onNewPositions) {
      try {
        await this.#onNewPositions(grew, worldNow);
      } catch (err) {
        this.#log?.error({ err, imos: grew }, 'applying new AIS positions to tracked shipments failed');
      }
    }
    return asked;
  }
}

/** The port an AIS destination names, when it is a UN/LOCODE of a known port. */
function boundFor(destination: string | null): { latitude: number; longitude: number; locode: string } | null {
  const locode = reportedLocode(destination, (code) => findPort(code) !== undefined);
  const port = locode ? findPort(locode) : undefined;
  return port && locode ? { latitude: port.latitude, longitude: port.longitude, locode } : null;
}

/** The port a query parameter names (id or UN/LOCODE); 404 naming the parameter when there is none. */
function portParameter(key: string, parameter: string): PortPlace {
  const port = findPort(key);
  if (port) return port;
  const detail = `${parameter} names no port: give a port id or UN/LOCODE`;
  throw new TidemarkError('not_found', detail, { items: [{ title: 'Not Found', detail, parameter }] });
}

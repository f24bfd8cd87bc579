// Whole journeys, booking to empty return, as the truth of a small world (when the box really was where), and
// what each source (the line, the POD terminal, the railroad) answers about it at any moment. The engine's
// invariant suite (src/tracking/invariants.test.ts) asks these sources late, twice, out of order and with answers
// withdrawn, and checks what the engine derives against the truth here.
import fc from 'fast-check';
import { localDate } from '../../src/domain/lfd.js';
import type { MilestoneFact, SourceObservation, YardFact } from '../../src/sources/contract.js';
import {
  BOX,
  CHICAGO_G4,
  containerFact,
  fee,
  hold,
  LA_APMT,
  ms,
  observation,
  place,
  SHANGHAI,
  shipmentFact,
  yard,
} from '../../src/tracking/test-builders.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** Where every journey starts: its empty out is within two days after. */
export const WORLD_START = Date.parse('2026-03-01T00:00:00Z');
export const LA = 'America/Los_Angeles';
export const CHICAGO = 'America/Chicago';
/** How long before the full out the pickup place stops saying "available" (it often does, one poll early). */
export const DROP_BEFORE_FULL_OUT = 30 * 60_000;
export const SINGAPORE = place('SGSIN');
export const LA_RAMP = place('USLAX', 'ICTF');
export const OFF_DOCK = place('USLAX', 'ZOD1', 'firms');

/** The truth of one journey: instants (ms, world time) and local last free days. */
export interface Journey {
  rail: boolean;
  transshipment: boolean;
  emptyOut: number;
  fullIn: number;
  loaded: number;
  departed: number;
  /** Transshipment at Singapore: arrived, discharged, loaded, departed. */
  ts: [number, number, number, number] | null;
  arrived: number;
  discharged: number;
  /** Customs hold at the POD terminal until this instant (null: no hold). */
  holdUntil: number | null;
  /** When the pickup place first offers the box. */
  availableFrom: number;
  /** Rail moves: loaded, departed at the port; arrived, unloaded at Chicago. */
  railLeg: [number, number, number, number] | null;
  /** Moved to an off-dock yard at this instant (ocean moves only). */
  offDockAt: number | null;
  fullOut: number;
  emptyIn: number;
  /** Local dates (`YYYY-MM-DD`): terminal's and line's in Los Angeles, rail's in Chicago. */
  terminalLfd: string;
  lineLfd: string;
  railLfd: string | null;
  /** Demurrage per day past the terminal's last free day (USD). */
  demurragePerDay: number;
  /** ETA revisions: [reported at, estimated arrival]. */
  etas: [number, number][];
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');
const hours = (min: number, max: number) => fc.integer({ min: min * 60, max: max * 60 }).map((m) => m * 60_000);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** Journeys of every shape: direct or transshipped, ocean or rail, held or not, off-dock, picked up early or late. */
export const journeyArb: fc.Arbitrary<Journey> = fc
  .record({
    rail: fc.boolean(),
    transshipment: fc.boolean(),
    offDock: fc.double({ min: 0, max: 1, noNaN: true }),
    start: hours(0, 48),
    toFullIn: hours(24, 96),
    toLoaded: hours(24, 72),
    toDeparted: hours(2, 12),
    ts: fc.tuple(hours(5 * 24, 10 * 24), hours(6, 24), hours(24, 96), hours(6, 24)),
    sail: hours(8 * 24, 20 * 24),
    toDischarged: hours(4, 36),
    hold: fc.option(hours(1, 96), { nil: null }),
    toAvailable: hours(0, 24),
    railTimes: fc.tuple(hours(12, 96), hours(2, 12), hours(3 * 24, 6 * 24), hours(2, 24), hours(1, 12)),
    toOffDock: hours(12, 48),
    dwell: hours(2, 9 * 24),
    toEmpty: hours(24, 10 * 24),
    lineAfter: fc.integer({ min: -2, max: 6 }),
    rate: fc.integer({ min: 50, max: 300 }),
    etaNoise: fc.array(fc.integer({ min: -48, max: 48 }), { minLength: 1, maxLength: 6 }),
  })
  .map((g) => {
    const emptyOut = WORLD_START + g.start;
    const fullIn = emptyOut + g.toFullIn;
    const loaded = fullIn + g.toLoaded;
    const departed = loaded + g.toDeparted;
    let next = departed;
    let ts: Journey['ts'] = null;
    if (g.transshipment) {
      const a = departed + g.ts[0];
      const d = a + g.ts[1];
      const l = d + g.ts[2];
      ts = [a, d, l, l + g.ts[3]];
      next = ts[3];
    }
    const arrived = next + g.sail;
    const discharged = arrived + g.toDischarged;
    const holdUntil = g.hold === null ? null : discharged + g.hold;
    let railLeg: Journey['railLeg'] = null;
    let availableFrom: number;
    if (g.rail) {
      const loadedRail = discharged + g.railTimes[0];
      const departedRail = loadedRail + g.railTimes[1];
      const arrivedRail = departedRail + g.railTimes[2];
      const unloaded = arrivedRail + g.railTimes[3];
      railLeg = [loadedRail, departedRail, arrivedRail, unloaded];
      availableFrom = Math.max(unloaded + g.railTimes[4], holdUntil ?? 0);
    } else {
      availableFrom = Math.max(discharged + g.toAvailable, holdUntil ?? 0);
    }
    const offDockAt = !g.rail && g.offDock < 0.2 ? discharged + g.toOffDock : null;
    const fullOut = Math.max(availableFrom, offDockAt ?? 0) + g.dwell;
    const terminalLfd = addDays(localDate(discharged, LA)!, 4);
    const railLfd = railLeg ? addDays(localDate(railLeg[3], CHICAGO)!, 3) : null;
    // ETAs: revised from loading on, closing in on the real arrival.
    const etas: [number, number][] = g.etaNoise.map((n, i) => {
      const reported = loaded + ((arrived - loaded) * i) / g.etaNoise.length;
      return [Math.round(reported), arrived + Math.round((n * HOUR * (g.etaNoise.length - i)) / g.etaNoise.length)];
    });
    return {
      rail: g.rail,
      transshipment: g.transshipment,
      emptyOut,
      fullIn,
      loaded,
      departed,
      ts,
      arrived,
      discharged,
      holdUntil,
      availableFrom,
      railLeg,
      offDockAt,
      fullOut,
      emptyIn: fullOut + g.toEmpty,
      terminalLfd,
      lineLfd: addDays(terminalLfd, g.lineAfter),
      railLfd,
      demurragePerDay: g.rate,
      etas,
    } satisfies Journey;
  });

// ---------------------------------------------------------------------------------------------------------
// The truth

/** Physical stages in the order a box goes through them. */
export type Stage = 'booked' | 'on_ship' | 'at_pod' | 'on_rail' | 'inland' | 'picked_up' | 'returned';
export const STAGES: readonly Stage[] = ['booked', 'on_ship', 'at_pod', 'on_rail', 'inland', 'picked_up', 'returned'];

export function stageAt(j: Journey, t: number): Stage {
  if (t >= j.emptyIn) return 'returned';
  if (t >= j.fullOut) return 'picked_up';
  if (j.railLeg && t >= j.railLeg[2]) return 'inland';
  if (j.railLeg && t >= j.railLeg[0]) return 'on_rail';
  if (t >= j.discharged) return 'at_pod';
  if (t >= j.loaded) return 'on_ship';
  return 'booked';
}

/** Whether the box is at its pickup place (the POD terminal or off-dock yard, or the inland ramp) at `t`. */
export function atPickupPlace(j: Journey, t: number): boolean {
  const s = stageAt(j, t);
  return j.rail ? s === 'inland' : s === 'at_pod';
}

// ---------------------------------------------------------------------------------------------------------
// What the sources say at a moment (as of `asOf`, fetched at `fetchedAt`)

function carrierSays(j: Journey, asOf: number): MilestoneFact[] {
  const out: MilestoneFact[] = [];
  const act = (m: MilestoneFact['milestone'], at: number, o: Parameters<typeof ms>[2]) => {
    if (at <= asOf) out.push(ms(m, iso(at), { ...o, reportedAt: iso(at + 10 * 60_000) }));
  };
  act('empty_out', j.emptyOut, { place: SHANGHAI });
  act('full_in', j.fullIn, { place: SHANGHAI });
  act('vessel_loaded', j.loaded, { place: SHANGHAI });
  act('vessel_departed', j.departed, { place: SHANGHAI, container: null });
  if (j.ts) {
    const feeder = { name: 'MSC Feeder', imo: '9400001', mmsi: null };
    act('transshipment_arrived', j.ts[0], { place: SINGAPORE, container: null });
    act('transshipment_discharged', j.ts[1], { place: SINGAPORE });
    act('transshipment_loaded', j.ts[2], { place: SINGAPORE, vessel: feeder, voyage: '7W' });
    act('transshipment_departed', j.ts[3], { place: SINGAPORE, container: null, vessel: feeder, voyage: '7W' });
  }
  const podVessel = j.ts ? { vessel: { name: 'MSC Feeder', imo: '9400001', mmsi: null }, voyage: '7W' } : {};
  act('vessel_arrived', j.arrived, { place: LA_APMT, container: null, ...podVessel });
  act('vessel_discharged', j.discharged, { place: LA_APMT, ...podVessel });
  if (asOf < j.arrived) {
    const eta = j.etas.filter(([r]) => r <= asOf).at(-1);
    if (eta) {
      out.push(
        ms('vessel_arrived', iso(eta[1]), {
          classifier: 'estimated',
          place: LA_APMT,
          container: null,
          reportedAt: iso(eta[0]),
          ...podVessel,
        }),
      );
    }
  }
  if (j.railLeg) {
    act('rail_loaded', j.railLeg[0], { place: LA_RAMP, railScac: 'UPRR' });
    act('rail_departed', j.railLeg[1], { place: LA_RAMP, railScac: 'UPRR' });
  }
  act('empty_in', j.emptyIn, { place: place(j.rail ? 'USCHI' : 'USLAX') });
  return out;
}

function terminalSays(j: Journey, asOf: number): { milestones: MilestoneFact[]; yard: YardFact[] } {
  if (asOf < j.arrived - 3 * DAY) return { milestones: [], yard: [] };
  if (j.railLeg && asOf >= j.railLeg[1]) return { milestones: [], yard: [] };
  const held = j.holdUntil !== null && asOf < j.holdUntil;
  const holds = held ? [hold('customs')] : [];
  if (asOf < j.discharged) return { milestones: [], yard: [yard({ available: false, holds })] };
  const offDock = j.offDockAt !== null && asOf >= j.offDockAt;
  const billedDays = Math.max(0, Math.min(daysPast(j.terminalLfd, asOf), daysPast(j.terminalLfd, j.fullOut)));
  const fees = billedDays > 0 ? [fee('demurrage', billedDays * j.demurragePerDay)] : [];
  const gone = asOf >= j.fullOut;
  const milestones = !j.rail && gone ? [ms('full_out', iso(j.fullOut), { place: offDock ? OFF_DOCK : LA_APMT })] : [];
  const available = !j.rail && asOf >= j.availableFrom && asOf < j.fullOut - DROP_BEFORE_FULL_OUT;
  return {
    milestones,
    yard: [
      yard({
        facility: offDock ? OFF_DOCK : LA_APMT,
        offDock,
        available,
        holds,
        fees,
        // The off-dock yard gives no last free day of its own: the terminal's binds.
        lfd: offDock || asOf < j.discharged + 12 * HOUR ? null : j.terminalLfd,
        lineLfd: null,
        yardLocation: gone ? null : offDock ? 'OD-3' : 'A-12-3',
      }),
    ],
  };
}

function railroadSays(j: Journey, asOf: number): { milestones: MilestoneFact[]; yard: YardFact[] } {
  if (!j.railLeg || asOf < j.railLeg[0] - DAY) return { milestones: [], yard: [] };
  const [loaded, departed, arrived, unloaded] = j.railLeg;
  const milestones: MilestoneFact[] = [];
  const act = (m: MilestoneFact['milestone'], at: number, p: typeof CHICAGO_G4) => {
    if (at <= asOf) milestones.push(ms(m, iso(at), { place: p, railScac: 'UPRR' }));
  };
  act('rail_loaded', loaded, LA_RAMP);
  act('rail_departed', departed, LA_RAMP);
  act('rail_arrived', arrived, CHICAGO_G4);
  act('rail_unloaded', unloaded, CHICAGO_G4);
  if (asOf >= j.fullOut) milestones.push(ms('full_out', iso(j.fullOut), { place: CHICAGO_G4, railScac: 'UPRR' }));
  const available = asOf >= j.availableFrom && asOf < j.fullOut - DROP_BEFORE_FULL_OUT;
  // The railroad says "not available" from before the train leaves: that is no position.
  return {
    milestones,
    yard: [yard({ facility: CHICAGO_G4, available, lfd: j.railLfd && asOf >= unloaded + 12 * HOUR ? j.railLfd : null })],
  };
}

/** Whole local days from a last free day to the local day of `t` in Los Angeles (0 on the day, negative before). */
export function daysPast(lfd: string, t: number): number {
  const today = localDate(t, LA)!;
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${lfd}T00:00:00Z`)) / DAY);
}

export type SourceName = 'carrier' | 'terminal' | 'rail';

/** What one source answers when fetched at `fetchedAt` reporting the world as of `asOf` (late when earlier). */
export function answer(j: Journey, source: SourceName, asOf: number, fetchedAt: number): SourceObservation {
  const at = iso(fetchedAt);
  if (source === 'carrier') {
    const ship = shipmentFact(j.rail ? { destination: place('USCHI') } : {});
    const lineLfd = asOf >= j.discharged ? [yard({ facility: LA_APMT, lineLfd: j.lineLfd })] : [];
    return observation({
      sourceId: 'carrier:dcsa',
      fetchedAt: at,
      shipment: ship,
      containers: [containerFact()],
      milestones: carrierSays(j, asOf),
      yard: lineLfd,
    });
  }
  const said = source === 'terminal' ? terminalSays(j, asOf) : railroadSays(j, asOf);
  return observation({ sourceId: source === 'terminal' ? 'terminal:w185' : 'rail:up', fetchedAt: at, ...said });
}

/** An answer with nothing in it: a source that suddenly returns nothing. */
export function emptyAnswer(source: SourceName, fetchedAt: number): SourceObservation {
  return observation({
    sourceId: source === 'carrier' ? 'carrier:dcsa' : source === 'terminal' ? 'terminal:w185' : 'rail:up',
    fetchedAt: iso(fetchedAt),
  });
}

export { BOX, iso };

// Builds the journey of a story: itinerary, sailings, equipment, vessel events; the container, yard and rail
// parts of each box's story live beside it (container-events.ts, yard-plan.ts, rail-events.ts).
import { makeContainerNumber } from '../../domain/container-number.js';
import type { Milestone } from '../../domain/milestones.js';
import type { NumberType } from '../../sources/contract.js';
import { carrierByScac, terminalNaturalKey } from '../../sources/reference/index.js';
import type { Sailing } from './network.js';
import { type CarrierProfile, carrierProfile, type TerminalProfile } from './profiles.js';
import { Rng, shortHash } from './random.js';
import {
  ITINERARIES,
  type Itinerary,
  itinerariesFor,
  podCallTerminal,
  podHasRail,
  podTerminals,
  podWeight,
  type RailRoutePlan,
  railRoutes,
} from './routing.js';
import { DAY, HOUR, MINUTE, roundTo } from './time.js';

import { AUDIENCE, type Story, type StoryEvent } from './story-types.js';
import { chainBackward, chainForward, type Placement } from './placement.js';
import {
  AHEAD_OF_SAILING_DAYS,
  BEFORE_SAILING,
  CALM,
  ISO_TYPES,
  LEASING_PREFIXES,
  MIN_AHEAD_OF_SAILING_DAYS,
  OFF_DOCK_YARDS,
  OHIO_RAIL_HUBS,
  PLAN_LEAD_DAYS,
  SOON_AT_POD,
} from './story-rules.js';
import { containerEvents } from './container-events.js';
import { facilityCodeOf, portPlace, profileOf } from './story-places.js';

export class JourneyBuilder {
  readonly rng: Rng;
  readonly profile: CarrierProfile;
  readonly events: StoryEvent[] = [];
  readonly breaks = new Set<number>();
  /** The leg that loads at the bill of lading's POL (1 when a feeder brings the box to it first). */
  polLeg = 0;

  constructor(
    readonly story: Story,
    readonly seed: string,
    readonly numberType: NumberType,
  ) {
    this.rng = new Rng(seed, story.carrierScac, numberType, story.number, 'story');
    this.profile = carrierProfile(story.carrierScac);
  }

  build(): void {
    const { story, rng } = this;
    const sc = story.scenario;
    const anchor = story.anchorMs;

    // Itinerary, POD terminal and rail route.
    const wantTransship = sc === 'transshipment' || sc === 'feeder' ? true : SOON_AT_POD.has(sc) || CALM.has(sc) ? false : rng.chance(0.3);
    const terminalNeed = this.terminalNeed();
    let railRoute: RailRoutePlan | null = null;
    // The last vessel discharges at its service's terminal there: the scenario's needs must fit that terminal, and
    // a terminal change needs another terminal of the same port that fits them too.
    const it = this.chooseItinerary((i) => {
      if (sc === 'rail' && i.pod !== 'USLAX' && i.pod !== 'USLGB') return false;
      if (sc === 'off_dock' && !(i.pod in OFF_DOCK_YARDS)) return false;
      // A feeder between two hubs in the middle of the journey (its moves are feeder_*, the hubs' transshipment_*).
      if (sc === 'feeder' && !(i.legs.length === 3 && i.legs[1]!.kind === 'feeder')) return false;
      const callTerminal = podCallTerminal(i);
      if (!terminalNeed(profileOf(callTerminal))) return false;
      if (sc === 'terminal_change') return podTerminals(i.pod).some((t) => t !== callTerminal && terminalNeed(profileOf(t)));
      return true;
    }, wantTransship);
    if (sc === 'rail') {
      const routes = railRoutes(it.pod).filter(
        (r) =>
          r.legs.length === 2 &&
          r.legs[0]!.railroad.id === 'BNSF' &&
          r.legs[0]!.to === 'USCHI' &&
          r.legs[1]!.railroad.id === 'CSX' &&
          OHIO_RAIL_HUBS.includes(r.destination.locode),
      );
      railRoute = rng.pick(routes);
    } else if (sc === 'ordinary' && podHasRail(it.pod) && rng.chance(0.38)) {
      const routes = railRoutes(it.pod);
      const direct = routes.filter((r) => r.legs.length === 1);
      const pool = direct.length > 0 && rng.chance(0.7) ? direct : routes;
      if (pool.length > 0) railRoute = rng.weighted(pool.map((r) => [r, r.destination.locode === 'USCHI' ? 4 : 1] as const));
    }

    // Sailings placed against the anchor.
    const placement = this.placement();
    let sailings: Sailing[];
    if (placement.mode === 'arrival') sailings = chainBackward(this.seed, it, placement.target, placement.underWayAt);
    else if (placement.mode === 'departure') sailings = chainForward(this.seed, it, placement.target, placement.notBefore);
    else {
      const probe = chainBackward(this.seed, it, anchor + 10 * DAY);
      const duration = probe.at(-1)!.to.arrive - probe[0]!.from.depart;
      sailings = chainBackward(this.seed, it, anchor + (1 - placement.u) * duration);
    }

    const first = sailings[0]!;
    const last = sailings.at(-1)!;
    // Booked before it is first asked about (a carrier knows a booking from when it was taken).
    story.bookedAt = roundTo(Math.min(first.from.depart - rng.range(12, 24) * DAY, anchor - rng.range(2, 72) * HOUR), HOUR);
    story.legs = sailings.map((s, i) => ({
      service: s.service,
      kind: it.legs[i]!.kind,
      imo: s.imo,
      vesselName: s.vesselName,
      voyage: s.to.voyageIn,
      from: s.from.locode,
      to: s.to.locode,
      departAt: s.from.depart,
      arriveAt: s.to.arrive,
    }));
    story.vesselImos = [...new Set(sailings.map((s) => s.imo))];
    // The bill of lading's POL: where the first sea-going vessel of the through voyage loads. In `feeder` the
    // box comes to it by feeder from its place of receipt (water pre-carriage), so the POL is the hub.
    this.polLeg = sc === 'feeder' ? 1 : 0;
    story.pol = portPlace(it.legs[this.polLeg]!.from);
    story.pod = portPlace(it.pod);

    // POD terminal(s): the terminal of the last vessel's call (one per service and port, so every box of the call
    // is discharged there); `terminal_change` moves the box to another terminal of the same port.
    const firstTerminal = podCallTerminal(it);
    story.podTerminals = [{ from: 0, key: terminalNaturalKey(firstTerminal) }];
    if (sc === 'terminal_change') {
      const other = rng.pick(podTerminals(it.pod).filter((t) => t !== firstTerminal && terminalNeed(profileOf(t))));
      const changeAt = roundTo(anchor + (last.to.arrive - anchor) * rng.range(0.35, 0.6), MINUTE);
      story.podTerminals.push({ from: changeAt, key: terminalNaturalKey(other) });
      this.breaks.add(changeAt);
    }
    story.podTerminalFirms = story.podTerminals.map((p) => facilityCodeOf(p.key));

    // Containers.
    this.equipment();
    story.containers = story.equipment.map((e) => e.number);
    if (!story.billOfLading) story.billOfLading = `${this.bolPrefix()}${this.digits(rng.int(9, 10))}`;
    if (!story.bookingNumber) story.bookingNumber = this.digits(rng.int(9, 10));

    // Events: vessel-level, then per container.
    this.vesselEvents(it, sailings);
    for (const eq of story.equipment) containerEvents(this, eq, it, sailings, railRoute);
    if (railRoute) {
      story.destination = story.rail!.destination;
      story.railCarrierScac = railRoute.legs[0]!.railroad.scac;
    }
    story.events = this.events.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));

    // Breakpoints: every instant some answer may change.
    for (const e of story.events) {
      this.breaks.add(e.at + e.lag);
      if (e.estimable) {
        this.breaks.add(e.estimateFrom);
        this.breaks.add(e.at - PLAN_LEAD_DAYS * DAY);
      }
    }
    if (sc === 'line_silent') {
      story.lineSilentFrom = roundTo(first.from.depart + rng.range(6, 20) * HOUR, MINUTE);
      this.breaks.add(story.lineSilentFrom);
    }
    if (sc === 'awaiting_manifest') this.breaks.add(anchor + 3 * DAY);
    if (sc === 'flaky') this.breaks.add(anchor + 12 * HOUR);
    story.breakpoints = [...this.breaks].filter(Number.isFinite).sort((a, b) => a - b);
  }

  terminalNeed(): (p: TerminalProfile) => boolean {
    switch (this.story.scenario) {
      case 'holds':
        return (p) => p.holds && p.available;
      case 'fees':
        return (p) => p.fees && p.feeTotalLine && p.lfd;
      case 'lfd_change':
        return (p) => p.lfd;
      case 'flicker':
        return (p) => p.lfd && p.location;
      case 'hold_other':
        return (p) => p.holds && p.available;
      case 'exam_long_stay':
        return (p) => p.holds && p.fees && p.dwellFee && p.lfd;
      case 'pickup_appointment':
        return (p) => p.appointment && p.available;
      case 'off_dock':
        return (p) => p.available && p.lfd;
      case 'line_silent':
      case 'never_returned':
        return (p) => p.fullOut;
      default:
        return () => true;
    }
  }

  /**
   * An itinerary the carrier sells (its vessel-sharing partners' services, `alliances.ts`), with or without a
   * transshipment as wished. Only when none of the carrier's itineraries fits the scenario (a documented number asked
   * with another carrier's SCAC) does it fall back to any line's.
   */
  chooseItinerary(filter: (it: Itinerary) => boolean, transship: boolean): Itinerary {
    const fits = (list: readonly Itinerary[]) => [list.filter((i) => filter(i) && i.legs.length > 1 === transship), list.filter(filter)];
    const pool = [...fits(itinerariesFor(this.story.carrierScac)), ...fits(ITINERARIES)].find((p) => p.length > 0) ?? [];
    const pods = [...new Set(pool.map((i) => i.pod))].sort();
    const pod = this.rng.weighted(pods.map((p) => [p, podWeight(p)] as const));
    return this.rng.pick(pool.filter((i) => i.pod === pod));
  }

  placement(): Placement {
    const { story, rng } = this;
    const anchor = story.anchorMs;
    const sc = story.scenario;
    if (SOON_AT_POD.has(sc)) return { mode: 'arrival', target: anchor + 7 * DAY };
    if (sc === 'transshipment') return { mode: 'arrival', target: anchor + 12 * DAY };
    // Mid-voyage at first sight, whatever the day: under way, so AIS shows it sailing and its arrival can be predicted.
    if (sc === 'succeeded') return { mode: 'arrival', target: anchor + 10 * DAY, underWayAt: anchor };
    if (sc === 'multi_container' || CALM.has(sc)) return { mode: 'arrival', target: anchor + 10 * DAY };
    if (sc === 'awaiting_manifest') return { mode: 'departure', target: anchor + 5 * DAY };
    // A booking, and a story told from before sailing, is first seen well ahead of the first sailing.
    if (BEFORE_SAILING.has(sc) || (sc === 'ordinary' && this.numberType === 'booking_number'))
      return { mode: 'departure', target: anchor + AHEAD_OF_SAILING_DAYS * DAY, notBefore: anchor + MIN_AHEAD_OF_SAILING_DAYS * DAY };
    const r = rng.next();
    const u = r < 0.12 ? rng.range(-0.35, 0) : r < 0.95 ? rng.range(0, 1) : rng.range(1, 1.25);
    return { mode: 'fraction', u };
  }

  bolPrefix(): string {
    return carrierByScac(this.story.carrierScac)?.bolPrefixes[0] ?? this.story.carrierScac;
  }

  digits(n: number): string {
    let s = String(this.rng.int(1, 9));
    while (s.length < n) s += String(this.rng.int(0, 9));
    return s;
  }

  equipment(): void {
    const { story, rng } = this;
    const sc = story.scenario;
    const count =
      sc === 'multi_container'
        ? rng.int(4, 6)
        : sc === 'succeeded' || sc === 'test_succeeded' || sc === 'container'
          ? 1
          : SOON_AT_POD.has(sc)
            ? rng.int(1, 2)
            : rng.weighted([
                [1, 45],
                [2, 25],
                [3, 14],
                [4, 8],
                [5, 5],
                [6, 3],
              ] as const);
    const own = carrierByScac(story.carrierScac)?.containerPrefixes ?? [];
    const blType = rng.weighted(ISO_TYPES);
    const sealStyle = new Rng('seal-style', story.carrierScac).int(0, 2);
    const numbers = new Set<string>();
    if (this.numberType === 'container') numbers.add(story.number);
    while (numbers.size < count) {
      const prefix = own.length > 0 && rng.chance(0.8) ? rng.pick(own) : rng.pick(LEASING_PREFIXES);
      numbers.add(makeContainerNumber(prefix, rng.int(0, 999_999)));
    }
    for (const number of numbers) {
      const isoSizeType = rng.chance(0.75) ? blType : rng.weighted(ISO_TYPES);
      const twenty = isoSizeType.startsWith('2');
      const weightLbs = Math.round(
        isoSizeType.endsWith('T6') ? rng.range(30_000, 58_000) : twenty ? rng.range(9_000, 47_000) : rng.range(11_000, 58_000),
      );
      const sealNumber =
        sealStyle === 0
          ? `${story.carrierScac.slice(0, 2)}${this.digits(7)}`
          : sealStyle === 1
            ? this.digits(8)
            : `${String.fromCharCode(65 + rng.int(0, 25))}${this.digits(6)}`;
      story.equipment.push({ number, isoSizeType, sealNumber, weightLbs });
    }
  }

  /**
   * Whether leg `i` is told as a feeder (feeder_*): water pre-carriage before the bill of lading's POL, as the DCSA
   * adapter reads it when the arrival notice states the POL (src/sources/carriers/dcsa/README.md, "Which legs are
   * which"). Every leg from the POL to the POD is a main leg — a feeder ship from the POL to a hub, or from a hub to
   * the POD, included: vessel_* at the POL and POD, transshipment_* at the hubs — one leg kind per vessel.
   */
  feederLeg(i: number): boolean {
    return i < this.polLeg;
  }

  add(
    e: Omit<StoryEvent, 'id' | 'nominal' | 'estimable' | 'estimateFrom'> &
      Partial<Pick<StoryEvent, 'nominal' | 'estimable' | 'estimateFrom'>>,
    seq: number,
  ): void {
    const at = roundTo(e.at, MINUTE);
    const placeKey = e.place === 'pod' ? 'pod' : e.place.locode;
    this.events.push({
      ...e,
      id: shortHash(this.seed, this.story.carrierScac, this.story.number, e.milestone, e.container ?? 'vessel', placeKey, seq),
      at,
      nominal: roundTo(e.nominal ?? at, MINUTE),
      lag: roundTo(e.lag, MINUTE),
      estimable: e.estimable ?? false,
      estimateFrom: e.estimateFrom ?? this.story.bookedAt,
    });
  }

  vesselEvents(it: Itinerary, sailings: Sailing[]): void {
    const { rng } = this;
    const C = AUDIENCE.carrier;
    const T = AUDIENCE.terminal;
    sailings.forEach((s, i) => {
      const leg = it.legs[i]!;
      const vessel = { name: s.vesselName, imo: s.imo };
      const voyage = s.to.voyageIn;
      const from = portPlace(leg.from);
      const feeder = this.feederLeg(i);
      const departMilestone: Milestone = i === this.polLeg ? 'vessel_departed' : feeder ? 'feeder_departed' : 'transshipment_departed';
      const base = {
        container: null,
        vessel,
        voyage,
        mode: 'vessel' as const,
        railScac: null,
        estimable: true,
        audience: C,
        sourceCode: 'TRANSPORT/DEPA',
      };
      this.add(
        {
          ...base,
          milestone: departMilestone,
          at: s.from.depart,
          nominal: s.from.nominalDepart,
          lag: rng.range(5, 90) * MINUTE,
          place: from,
          stage: i <= this.polLeg ? 'pol' : 'hub',
        },
        i,
      );
      if (i < sailings.length - 1) {
        const arriveMilestone: Milestone = feeder ? 'feeder_arrived' : 'transshipment_arrived';
        this.add(
          {
            ...base,
            sourceCode: 'TRANSPORT/ARRI',
            milestone: arriveMilestone,
            at: s.to.arrive,
            nominal: s.to.nominalArrive,
            lag: rng.range(5, 90) * MINUTE,
            place: portPlace(leg.to),
            stage: 'hub',
          },
          i,
        );
      } else {
        // The POD terminal tells its own vessel visit (arrival, berthing) with the boxes it discharges: a source
        // that tells the discharge tells the steps before it, so neither the terminal (asked hourly there) nor the
        // line (every six hours) makes the discharge known before the berthing.
        this.add(
          {
            ...base,
            audience: C | T,
            sourceCode: 'TRANSPORT/ARRI',
            milestone: 'vessel_arrived',
            at: s.to.arrive,
            nominal: s.to.nominalArrive,
            lag: rng.range(5, 60) * MINUTE,
            place: 'pod',
            stage: 'pod',
          },
          i,
        );
        const stay = s.to.depart - s.to.arrive;
        const berth = s.to.arrive + Math.min(rng.range(1, 8) * HOUR, stay / 4);
        this.add(
          {
            ...base,
            audience: C | T,
            estimable: false,
            sourceCode: 'TRANSPORT/BRTH',
            milestone: 'vessel_berthed',
            at: berth,
            lag: rng.range(5, 60) * MINUTE,
            place: 'pod',
            stage: 'pod',
          },
          i,
        );
      }
    });
  }
}

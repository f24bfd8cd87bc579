import type { Milestone } from '../../domain/milestones.js';
import type { Sailing } from './network.js';
import type { Itinerary, RailRoutePlan } from './routing.js';
import { exportEmptyOutAt, exportFullInAt, placeGateCalendar } from './terminal-rules.js';
import { HOUR, MINUTE, roundTo } from './time.js';

import { AUDIENCE, type StoryEquipment } from './story-types.js';
import type { JourneyBuilder } from './journey.js';
import { yardPlan } from './yard-plan.js';
import { railEvents } from './rail-events.js';
import { portPlace, terminalYardPlace } from './story-places.js';

export function containerEvents(
  b: JourneyBuilder,
  eq: StoryEquipment,
  it: Itinerary,
  sailings: Sailing[],
  railRoute: RailRoutePlan | null,
): void {
  const { rng, story } = b;
  const C = AUDIENCE.carrier;
  const T = AUDIENCE.terminal;
  const c = eq.number;
  const first = sailings[0]!;
  const last = sailings.at(-1)!;
  // Where the box is received: the POL, or the place a feeder brings it from to the POL.
  const pol = portPlace(it.legs[0]!.from);
  const lagEq = () => rng.range(10, 240) * MINUTE;
  const none = { vessel: null, voyage: null, railScac: null };
  const vesselOf = (s: Sailing) => ({ vessel: { name: s.vesselName, imo: s.imo }, voyage: s.to.voyageIn, railScac: null });

  // Export moves at the POL's gates: the full box gated in days before its vessel calls (before the cutoff), the
  // empty picked up days before that.
  const polGates = placeGateCalendar(pol.timeZone);
  const fullIn = exportFullInAt(polGates, first.from, rng.next(), rng.range(0, 8) * HOUR);
  const emptyOut = exportEmptyOutAt(polGates, fullIn, rng.next(), rng.range(0, 8) * HOUR);
  b.add(
    {
      ...none,
      milestone: 'empty_out',
      container: c,
      at: emptyOut,
      lag: lagEq(),
      place: pol,
      mode: 'truck',
      audience: C,
      stage: 'pol',
      sourceCode: 'EQUIPMENT/GTOT',
    },
    0,
  );
  b.add(
    {
      ...none,
      milestone: 'full_in',
      container: c,
      at: fullIn,
      lag: lagEq(),
      place: pol,
      mode: 'truck',
      audience: C,
      stage: 'pol',
      sourceCode: 'EQUIPMENT/GTIN',
    },
    0,
  );
  const loadLo = Math.max(first.from.arrive + HOUR, fullIn + 12 * HOUR);
  b.add(
    {
      ...vesselOf(first),
      milestone: b.polLeg === 0 ? 'vessel_loaded' : 'feeder_loaded',
      container: c,
      at: rng.range(loadLo, first.from.depart - HOUR),
      lag: lagEq(),
      place: pol,
      mode: 'vessel',
      audience: C,
      stage: 'pol',
      sourceCode: 'EQUIPMENT/LOAD',
    },
    0,
  );

  for (let i = 0; i < sailings.length - 1; i++) {
    const inbound = sailings[i]!;
    const outbound = sailings[i + 1]!;
    const hub = portPlace(it.legs[i]!.to);
    const disc = rng.range(inbound.to.arrive + 2 * HOUR, Math.min(inbound.to.depart - HOUR, inbound.to.arrive + 20 * HOUR));
    const load = rng.range(Math.max(outbound.from.arrive + HOUR, disc + 4 * HOUR), outbound.from.depart - HOUR);
    const inFeeder = b.feederLeg(i);
    const outMilestone: Milestone = i + 1 === b.polLeg ? 'vessel_loaded' : b.feederLeg(i + 1) ? 'feeder_loaded' : 'transshipment_loaded';
    b.add(
      {
        ...vesselOf(inbound),
        milestone: inFeeder ? 'feeder_discharged' : 'transshipment_discharged',
        container: c,
        at: disc,
        lag: lagEq(),
        place: hub,
        mode: 'vessel',
        audience: C,
        stage: 'hub',
        sourceCode: 'EQUIPMENT/DISC',
      },
      i,
    );
    b.add(
      {
        ...vesselOf(outbound),
        milestone: outMilestone,
        container: c,
        at: load,
        lag: lagEq(),
        place: hub,
        mode: 'vessel',
        audience: C,
        stage: 'hub',
        sourceCode: 'EQUIPMENT/LOAD',
      },
      i,
    );
  }

  const arrive = last.to.arrive;
  const berth = b.events.find((e) => e.milestone === 'vessel_berthed')!.at;
  const discharged = roundTo(rng.range(berth + HOUR, Math.min(last.to.depart - HOUR, berth + 30 * HOUR)), MINUTE);
  b.add(
    {
      ...vesselOf(last),
      milestone: 'vessel_discharged',
      container: c,
      at: discharged,
      lag: rng.range(5, 90) * MINUTE,
      place: 'pod',
      mode: 'vessel',
      audience: C | T,
      stage: 'pod',
      sourceCode: 'EQUIPMENT/DISC',
    },
    0,
  );

  const yard = yardPlan(b, eq, arrive, discharged, last.to.depart, railRoute !== null);
  if (railRoute) railEvents(b, eq, yard, railRoute);
  else {
    b.add(
      {
        ...none,
        milestone: 'available',
        container: c,
        at: yard.availableAt!,
        lag: rng.range(5, 60) * MINUTE,
        place: 'pod',
        mode: null,
        audience: C,
        stage: 'pod',
        sourceCode: 'EQUIPMENT/AVAL',
      },
      0,
    );
    b.add(
      {
        ...none,
        milestone: 'full_out',
        container: c,
        at: yard.fullOutAt!,
        lag: rng.range(5, 90) * MINUTE,
        // From the off-dock yard when the box was moved there (the terminal source tells it).
        place: yard.offDock ? terminalYardPlace(yard.offDock.key) : 'pod',
        mode: 'truck',
        audience: C | T,
        stage: 'pod',
        sourceCode: 'EQUIPMENT/GTOT',
      },
      0,
    );
    // Returned to a depot nobody reports in the stories without an empty return.
    if (yard.emptyInAt !== null)
      b.add(
        {
          ...none,
          milestone: 'empty_in',
          container: c,
          at: yard.emptyInAt,
          lag: rng.range(5, 120) * MINUTE,
          place: 'pod',
          mode: 'truck',
          audience: C | T,
          stage: 'pod',
          sourceCode: 'EQUIPMENT/GTIN',
        },
        0,
      );
  }
  story.yards.push(yard);
}

// A box's inland rail move: loaded at the port ramp, interchanges, arrival at the inland ramp, out-gate, empty return.
import { makeContainerNumber } from '../../domain/container-number.js';
import type { RailRoutePlan } from './routing.js';
import { addDays, DAY, HOUR, localDate, MINUTE, roundTo } from './time.js';

import { AUDIENCE, type StoryEquipment, type StoryPlace, type YardPlan } from './story-types.js';
import { CHASSIS_PREFIXES } from './story-rules.js';
import type { JourneyBuilder } from './journey.js';
import { hubOf, railPlace } from './story-places.js';

export function railEvents(b: JourneyBuilder, eq: StoryEquipment, yard: YardPlan, route: RailRoutePlan): void {
  const { rng, story } = b;
  const C = AUDIENCE.carrier;
  const R = AUDIENCE.rail;
  const c = eq.number;
  const loaded = yard.railLoadedAt!;
  const dest = route.destination;
  const lastRailroad = route.legs.at(-1)!.railroad;
  const destPlace = railPlace(dest, lastRailroad.shortName);
  if (!story.rail) {
    story.rail = {
      railroads: route.legs.map((l) => l.railroad.scac),
      destination: destPlace,
      knownAt: yard.arrivedAt,
      perContainer: [],
    };
  }
  const first = route.legs[0]!.railroad;
  b.add(
    {
      vessel: null,
      voyage: null,
      railScac: first.scac,
      milestone: 'rail_loaded',
      container: c,
      at: loaded,
      lag: rng.range(10, 120) * MINUTE,
      place: 'pod',
      mode: 'rail',
      audience: C | R,
      stage: 'rail',
      sourceCode: 'EQUIPMENT/LOAD',
    },
    0,
  );
  let t = loaded + rng.range(4, 14) * HOUR;
  route.legs.forEach((leg, i) => {
    const fromPlace = i === 0 ? ('pod' as const) : railPlace(hubOf(leg.from), leg.railroad.shortName);
    b.add(
      {
        vessel: null,
        voyage: null,
        railScac: leg.railroad.scac,
        milestone: 'rail_departed',
        container: c,
        at: t,
        lag: rng.range(10, 120) * MINUTE,
        place: fromPlace,
        mode: 'rail',
        audience: i === 0 ? C | R : R,
        stage: 'rail',
        sourceCode: 'TRANSPORT/DEPA',
      },
      i,
    );
    const transit = (leg.distanceNm / 21.7) * HOUR + rng.range(0, 14) * HOUR;
    const arrive = roundTo(t + transit, MINUTE);
    const isLast = i === route.legs.length - 1;
    const toPlace = isLast ? destPlace : railPlace(hubOf(leg.to), leg.railroad.shortName);
    b.add(
      {
        vessel: null,
        voyage: null,
        railScac: leg.railroad.scac,
        milestone: 'rail_arrived',
        container: c,
        at: arrive,
        nominal: isLast ? arrive + rng.range(-24, 36) * HOUR : arrive,
        estimable: isLast,
        estimateFrom: isLast ? story.bookedAt : undefined,
        lag: rng.range(10, 120) * MINUTE,
        place: toPlace,
        mode: 'rail',
        audience: isLast ? C | R : R,
        stage: 'rail',
        sourceCode: 'TRANSPORT/ARRI',
      },
      i,
    );
    t = arrive + rng.range(14, 40) * HOUR;
    if (isLast) t = arrive;
  });
  const arrived = t;
  const unloadedAt = roundTo(arrived + rng.range(3, 16) * HOUR, MINUTE);
  const availableAt = roundTo(unloadedAt + rng.range(1, 6) * HOUR, MINUTE);
  const fullOutAt = roundTo(availableAt + rng.range(0.5, 3.5) * DAY, MINUTE);
  const emptyInAt = roundTo(fullOutAt + rng.range(2, 7) * DAY, MINUTE);
  const base = {
    vessel: null,
    voyage: null,
    railScac: lastRailroad.scac,
    container: c,
    lag: rng.range(10, 120) * MINUTE,
    stage: 'inland' as const,
  };
  b.add(
    {
      ...base,
      milestone: 'rail_unloaded',
      at: unloadedAt,
      place: destPlace,
      mode: 'rail',
      audience: C | R,
      sourceCode: 'EQUIPMENT/DISC',
    },
    0,
  );
  b.add(
    { ...base, milestone: 'available', at: availableAt, place: destPlace, mode: null, audience: C | R, sourceCode: 'EQUIPMENT/AVAL' },
    1,
  );
  b.add(
    { ...base, milestone: 'full_out', at: fullOutAt, place: destPlace, mode: 'truck', audience: C | R, sourceCode: 'EQUIPMENT/GTOT' },
    1,
  );
  const depot: StoryPlace = {
    locode: dest.locode,
    name: `${dest.name} empty depot`,
    facilityCode: null,
    facilityCodeList: null,
    timeZone: dest.timeZone,
  };
  b.add({ ...base, milestone: 'empty_in', at: emptyInAt, place: depot, mode: 'truck', audience: C | R, sourceCode: 'EQUIPMENT/GTIN' }, 1);
  yard.emptyInAt = emptyInAt;
  story.rail!.perContainer.push({
    container: c,
    availableAt,
    unloadedAt,
    fullOutAt,
    lfd: addDays(localDate(availableAt, dest.timeZone), 2),
    yardLocation: `Lot ${String.fromCharCode(65 + rng.int(0, 5))} Spot ${rng.int(1, 400)}`,
    chassisNumber: makeContainerNumber(rng.pick(CHASSIS_PREFIXES), rng.int(0, 999_999)),
  });
  for (const x of [yard.arrivedAt, unloadedAt, availableAt, fullOutAt, emptyInAt]) b.breaks.add(x);
}

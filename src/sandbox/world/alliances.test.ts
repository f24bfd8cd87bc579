import { describe, expect, it } from 'vitest';
import {
  PORT_RAIL_CATCHMENTS,
  RAIL_INTERCHANGE_CITIES,
  railroadByScacOrMark,
  rampName,
  terminalNaturalKey,
} from '../../sources/reference/index.js';
import {
  ALLIANCES_AS_OF,
  CARRIER_ROWS,
  carrierMayUse,
  carrierOperators,
  LINE_NAMES,
  OPERATORS,
  SERVICE_OPERATORS,
  serviceOperator,
  vesselNameFits,
} from './alliances.js';
import { fleet, SERVICES, vesselByImo } from './network.js';
import { SANDBOX_SCACS } from './profiles.js';
import { sandboxExamples } from './scenarios.js';
import { callTerminal, ITINERARIES, itinerariesFor, podTerminals, railRoutes } from './routing.js';
import { podTerminalAt, type Story, tellStory } from './story.js';
import { DAY } from './time.js';

const ANCHOR = Date.parse('2026-04-01T00:00:00Z');
const SEED = 'alliance-seed';

/** Ordinary stories of every sandbox carrier: BLs, bookings and containers, anchors spread over two months. */
function storiesOfEveryCarrier(perCarrier: number): Story[] {
  const out: Story[] = [];
  SANDBOX_SCACS.forEach((scac, c) => {
    for (let i = 0; i < perCarrier; i++) {
      const numberType = i % 3 === 0 ? 'booking_number' : 'bill_of_lading';
      out.push(
        tellStory({
          seed: SEED,
          scac,
          numberType,
          number: `WLD${scac}${100000 + i}`,
          anchorAt: new Date(ANCHOR + ((c * 7 + i * 5) % 60) * DAY),
        }),
      );
    }
  });
  return out;
}

describe('the vessel-sharing table', () => {
  it('is dated and names its source on every row; URLs only where the source was checked', () => {
    expect(ALLIANCES_AS_OF).toMatch(/^2026-/);
    for (const o of OPERATORS) {
      expect(o.source.what.length, o.id).toBeGreaterThan(10);
      if (o.source.url) expect(o.source.checked, o.id).toBe(true);
    }
    for (const r of CARRIER_ROWS) {
      expect(r.source.what.length, r.scac).toBeGreaterThan(10);
      if (r.source.url) expect(r.source.checked, r.scac).toBe(true);
    }
  });

  it('has one row per sandbox carrier, each on known operators', () => {
    expect(CARRIER_ROWS.map((r) => r.scac).sort()).toEqual([...SANDBOX_SCACS].sort());
    const ids = new Set(OPERATORS.map((o) => o.id));
    for (const r of CARRIER_ROWS) {
      expect(r.on.length, r.scac).toBeGreaterThan(0);
      for (const op of r.on) expect(ids.has(op), `${r.scac} ${op}`).toBe(true);
    }
  });

  it('puts every operating line on its own operator, and knows how each names its ships', () => {
    for (const o of OPERATORS) {
      for (const line of o.lines) {
        expect(carrierOperators(line), line).toContain(o.id);
        expect(LINE_NAMES[line], line).toBeDefined();
      }
    }
  });

  it.each([
    ['MAEU', 'GEMINI'],
    ['HLCU', 'GEMINI'],
    ['SEAU', 'GEMINI'],
    ['ONEY', 'PREMIER'],
    ['HDMU', 'PREMIER'],
    ['YMLU', 'PREMIER'],
    ['CMDU', 'OCEAN'],
    ['APLU', 'OCEAN'],
    ['ANNU', 'OCEAN'],
    ['COSU', 'OCEAN'],
    ['OOLU', 'OCEAN'],
    ['EGLV', 'OCEAN'],
    ['MSCU', 'MSC'],
    ['ZIMU', 'ZIM'],
    ['GOSU', 'ZIM'],
  ] as const)('%s sails with %s', (scac, op) => {
    expect(carrierOperators(scac)).toEqual([op]);
  });

  it('gives every mainline an operator and no feeder one', () => {
    for (const s of SERVICES) {
      if (s.kind === 'mainline') expect(serviceOperator(s.code), s.code).not.toBeNull();
      else expect(serviceOperator(s.code), s.code).toBeNull();
    }
    expect(Object.keys(SERVICE_OPERATORS).sort()).toEqual(
      SERVICES.filter((s) => s.kind === 'mainline')
        .map((s) => s.code)
        .sort(),
    );
  });

  it.each(['seed-a', 'seed-b', 'test-seed'])('names every vessel after its service’s operating lines or chartered tonnage (%s)', (seed) => {
    for (const v of fleet(seed)) expect(vesselNameFits(v.service, v.name), `${v.service} ${v.name}`).toBe(true);
  });

  it.each([
    ['TP1', 'MAERSK ATLAS', true],
    ['TP1', 'HAMBURG EXPRESS', true],
    ['TP1', 'COSCO ATLAS', false],
    ['TP3', 'OOCL MERIDIAN', true],
    ['TP3', 'MSC ORION', false],
    ['TP4', 'SEASPAN VEGA', true],
    ['F01', 'ORION FEEDER', true],
  ] as const)('%s may carry a ship named %s: %s', (service, name, fits) => {
    expect(vesselNameFits(service, name)).toBe(fits);
  });

  it('lets every sandbox carrier reach at least three PODs, and the big lines many more', () => {
    for (const scac of SANDBOX_SCACS) {
      const pods = new Set(itinerariesFor(scac).map((i) => i.pod));
      expect(pods.size, scac).toBeGreaterThanOrEqual(3);
    }
    for (const scac of ['MAEU', 'HLCU', 'ONEY', 'CMDU', 'COSU', 'MSCU'])
      expect(new Set(itinerariesFor(scac).map((i) => i.pod)).size, scac).toBeGreaterThanOrEqual(7);
    expect(itinerariesFor('TEST')).toHaveLength(ITINERARIES.length);
  });
});

describe('stories sail on their carrier’s partners’ ships', () => {
  const stories = storiesOfEveryCarrier(8);

  it('every leg of every story is a service the carrier may use, on a vessel of that service that fits it', () => {
    for (const s of stories) {
      for (const leg of s.legs) {
        expect(carrierMayUse(s.carrierScac, leg.service), `${s.carrierScac} ${s.number} ${leg.service}`).toBe(true);
        expect(vesselByImo(SEED, leg.imo)?.service).toBe(leg.service);
        expect(vesselNameFits(leg.service, leg.vesselName), `${leg.service} ${leg.vesselName}`).toBe(true);
      }
    }
  });

  it('the documented scenarios sail with their own carrier', () => {
    for (const ex of sandboxExamples()) {
      if (!ex.scac) continue;
      const s = tellStory({
        seed: SEED,
        scac: ex.scac,
        numberType: ex.request_type,
        number: ex.request_number,
        anchorAt: new Date(ANCHOR),
      });
      for (const leg of s.legs) expect(carrierMayUse(ex.scac, leg.service), `${ex.scenario} ${leg.service}`).toBe(true);
    }
  });
});

describe('one vessel call, one terminal', () => {
  it('callTerminal is one terminal of the port per service, and the operator’s own where known', () => {
    for (const it of ITINERARIES) {
      const leg = it.legs.at(-1)!;
      const t = callTerminal(leg.service, it.pod);
      expect(t.portLocode).toBe(it.pod);
      expect(podTerminals(it.pod)).toContain(t);
      expect(callTerminal(leg.service, it.pod)).toBe(t);
    }
    expect(terminalNaturalKey(callTerminal('TP1', 'USLAX'))).toBe('W185'); // APM Terminals Pier 400 (Maersk)
    expect(terminalNaturalKey(callTerminal('TP3', 'USLGB'))).toBe('WAC8'); // LBCT (OOCL)
  });

  it('every box of one call (vessel, voyage, POD) is discharged at one terminal, unless the story changes it', () => {
    const stories = storiesOfEveryCarrier(6);
    for (const ex of sandboxExamples()) {
      if (!ex.scac) continue;
      for (const d of [0, 9, 23])
        stories.push(
          tellStory({
            seed: SEED,
            scac: ex.scac,
            numberType: ex.request_type,
            number: ex.request_number,
            anchorAt: new Date(ANCHOR + d * DAY),
          }),
        );
    }
    const byCall = new Map<string, Set<string>>();
    let calls = 0;
    for (const s of stories) {
      const last = s.legs.at(-1);
      if (!last || s.podTerminals.length === 0) continue;
      const key = `${last.imo}|${last.voyage}|${last.to}`;
      const first = s.podTerminals[0]!.key;
      if (!byCall.has(key)) byCall.set(key, new Set());
      byCall.get(key)!.add(first);
      calls++;
      if (s.scenario === 'terminal_change') {
        expect(s.podTerminals).toHaveLength(2);
        const [a, b] = s.podTerminals.map((p) => p.key);
        expect(a).not.toBe(b);
        expect(podTerminalAt(s, s.legs.at(-1)!.arriveAt)).toBe(b);
      } else {
        expect(s.podTerminals, s.number).toHaveLength(1);
      }
    }
    expect(calls).toBeGreaterThan(200);
    for (const [key, terminals] of byCall) expect([...terminals], key).toHaveLength(1);
  });
});

describe('rail routes stay in the POD’s catchment', () => {
  it('reaches only catchment hubs, with ramps at both ends of every leg, interchanging only at interchange cities', () => {
    for (const pod of Object.keys(PORT_RAIL_CATCHMENTS)) {
      const routes = railRoutes(pod);
      expect(routes.length, pod).toBeGreaterThan(0);
      for (const r of routes) {
        expect(PORT_RAIL_CATCHMENTS[pod], `${pod} → ${r.destination.locode}`).toContain(r.destination.locode);
        expect(r.legs.length).toBeLessThanOrEqual(2);
        r.legs.forEach((leg, i) => {
          expect(rampName(leg.railroad.id, leg.to), `${leg.railroad.id} at ${leg.to}`).toBeDefined();
          if (i > 0) {
            expect(RAIL_INTERCHANGE_CITIES).toContain(leg.from);
            expect(rampName(leg.railroad.id, leg.from)).toBeDefined();
            expect(leg.railroad.id).not.toBe(r.legs[i - 1]!.railroad.id);
          }
        });
      }
    }
  });

  it('no longer sends Charleston boxes to Phoenix or Savannah boxes to Houston', () => {
    expect(railRoutes('USCHS').map((r) => r.destination.locode)).not.toContain('USPHX');
    expect(railRoutes('USSAV').map((r) => r.destination.locode)).not.toContain('USHOU');
  });

  it('keeps the documented rail route: LA/LB, BNSF to Chicago, CSX on to an Ohio hub BNSF does not serve', () => {
    const routes = railRoutes('USLAX').filter(
      (r) => r.legs.length === 2 && r.legs[0]!.railroad.id === 'BNSF' && r.legs[0]!.to === 'USCHI' && r.legs[1]!.railroad.id === 'CSX',
    );
    expect(routes.map((r) => r.destination.locode)).toEqual(expect.arrayContaining(['USCMH', 'USNBH']));
  });

  it('names the ramps of every story’s rail move', () => {
    const stories = storiesOfEveryCarrier(10).filter((s) => s.rail);
    expect(stories.length).toBeGreaterThan(10);
    for (const s of stories) {
      const rr = s.rail!.railroads.map((scac) => railroadByScacOrMark(scac)!);
      expect(PORT_RAIL_CATCHMENTS[s.pod!.locode]).toContain(s.rail!.destination.locode);
      expect(s.rail!.destination.name).toBe(rampName(rr.at(-1)!.id, s.rail!.destination.locode));
      for (const e of s.events.filter((x) => x.stage === 'rail' && x.place !== 'pod')) {
        const place = e.place as Exclude<typeof e.place, 'pod'>;
        const r = railroadByScacOrMark(e.railScac!)!;
        expect(place.name).toBe(rampName(r.id, place.locode));
      }
    }
  });
});

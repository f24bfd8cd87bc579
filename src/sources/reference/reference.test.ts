import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { describeWithReference, reference } from '../../../test/kit/reference.js';
import { referenceId } from '../../lib/ids.js';
import {
  CARRIERS,
  type Carrier,
  carrierByBolPrefix,
  carrierById,
  carrierByContainerPrefix,
  carrierByScac,
  DEFAULT_CARRIER_SCACS,
  EXTRA_CARRIER_SCACS,
  PORT_RAIL_CATCHMENTS,
  PORTS,
  type Port,
  portById,
  portByLocode,
  RAIL_HUBS,
  RAIL_INTERCHANGE_CITIES,
  RAIL_RAMPS,
  RAILROADS,
  type RailHub,
  type Railroad,
  railHubById,
  railHubByLocode,
  railHubByRampLocode,
  railRamp,
  railroadById,
  railroadByScacOrMark,
  rampName,
  TERMINALS,
  type Terminal,
  terminalByFirmsCode,
  terminalById,
  terminalBySmdgCode,
  terminalNaturalKey,
  terminalsByPortLocode,
  terminalsBySmdgCode,
} from './index.js';

const isTimeZone = (timeZone: string) => {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
    return true;
  } catch {
    return false;
  }
};

describe('carriers', () => {
  it('has the 38 lines: 36 enabled by default, SMLU and TRBR per account', () => {
    expect(CARRIERS).toHaveLength(38);
    expect(DEFAULT_CARRIER_SCACS).toHaveLength(36);
    expect(EXTRA_CARRIER_SCACS).toEqual(['SMLU', 'TRBR']);
  });

  it('finds a carrier by SCAC, case-insensitively', () => {
    expect(carrierByScac('maeu')?.name).toBe('Maersk');
    expect(carrierByScac(' MAEU ')?.shortName).toBe('Maersk');
    expect(carrierByScac('XXXX')).toBeUndefined();
  });

  it('finds a carrier by an alternative SCAC', () => {
    expect(carrierByScac('MEDU')?.scac).toBe('MSCU');
    expect(carrierByScac('seal')?.scac).toBe('SEAU');
    expect(carrierByScac('PLLU')?.scac).toBe('CHVW');
    expect(carrierByScac('ymjA')?.scac).toBe('YMLU');
  });

  it('finds a carrier by id and by prefix hints', () => {
    const msc = carrierByScac('MSCU')!;
    expect(carrierById(msc.id)).toBe(msc);
    expect(carrierById(msc.id.toUpperCase())).toBe(msc);
    expect(carrierByBolPrefix('medu')).toBe(msc);
    expect(carrierByBolPrefix('ANLC')?.scac).toBe('ANNU');
    expect(carrierByContainerPrefix('MSKU')?.scac).toBe('MAEU');
    expect(carrierByContainerPrefix('ZZZU')).toBeUndefined();
  });

  it('keeps the reference-API flags', () => {
    expect(carrierByScac('EGLV')).toMatchObject({ trackByBillOfLading: false, trackByBooking: false, trackByContainer: true });
    expect(carrierByScac('TRBR')).toMatchObject({ trackByBooking: true, defaultEnabled: false, alternativeScacs: ['TBIE', 'PYRR'] });
    expect(new Set(CARRIERS.map((c) => c.dcsaTnt))).toEqual(new Set(['yes', 'no', 'unknown']));
  });

  it('is frozen', () => {
    const maersk = carrierByScac('MAEU')!;
    expect(Object.isFrozen(CARRIERS)).toBe(true);
    expect(Object.isFrozen(maersk)).toBe(true);
    expect(Object.isFrozen(maersk.containerPrefixes)).toBe(true);
  });
});

describe('railroads', () => {
  it('has the six Class I railroads', () => {
    expect(RAILROADS.map((r) => r.id)).toEqual(['BNSF', 'UP', 'CN', 'CPKC', 'CSX', 'NS']);
    expect(RAILROADS.map((r) => r.scac)).toEqual(['BNSF', 'UPRR', 'CNRU', 'CPRS', 'CSXT', 'NSRR']);
  });

  it('finds a railroad by id, SCAC, reporting mark or other code', () => {
    expect(railroadById('cpkc')?.shortName).toBe('CPKC');
    expect(railroadById('CPRS')).toBeUndefined();
    expect(railroadByScacOrMark('UPRR')?.id).toBe('UP');
    expect(railroadByScacOrMark('up')?.id).toBe('UP');
    expect(railroadByScacOrMark('KCSM')?.id).toBe('CPKC');
    expect(railroadByScacOrMark('ATSF')?.id).toBe('BNSF');
    expect(railroadByScacOrMark('CSXT')?.id).toBe('CSX');
    expect(railroadByScacOrMark('NOPE')).toBeUndefined();
  });
});

describe('ports', () => {
  it('has 190 ports, 36 of them in North America', () => {
    expect(PORTS).toHaveLength(190);
    expect(PORTS.filter((p) => ['US', 'PR', 'CA', 'MX'].includes(p.countryCode))).toHaveLength(36);
  });

  it('finds a port by LOCODE and by id', () => {
    const la = portByLocode('uslax')!;
    expect(la).toMatchObject({ name: 'Los Angeles', countryCode: 'US', latitude: 33.7167, longitude: -118.2833 });
    expect(portById(la.id)).toBe(la);
    expect(portByLocode('ZZZZZ')).toBeUndefined();
  });

  it('has coordinates in range whose four-decimal text round-trips', () => {
    for (const p of PORTS) {
      expect(Math.abs(p.latitude), p.locode).toBeLessThanOrEqual(90);
      expect(Math.abs(p.longitude), p.locode).toBeLessThanOrEqual(180);
      expect(Number(p.latitude.toFixed(4)), p.locode).toBe(p.latitude);
      expect(Number(p.longitude.toFixed(4)), p.locode).toBe(p.longitude);
    }
  });

  it('uses its own country in every LOCODE', () => {
    expect(PORTS.filter((p) => p.locode.slice(0, 2) !== p.countryCode)).toEqual([]);
  });
});

describe('terminals', () => {
  it('has 89 terminals: 68 US, 11 CA, 10 MX; 71 in current reference-API coverage', () => {
    expect(TERMINALS).toHaveLength(89);
    expect(['US', 'CA', 'MX'].map((c) => TERMINALS.filter((t) => t.country === c).length)).toEqual([68, 11, 10]);
    expect(TERMINALS.filter((t) => t.refApiCoverage === 'current')).toHaveLength(71);
  });

  it('finds a terminal by FIRMS code, including an older code', () => {
    expect(terminalByFirmsCode('n195')?.nickname).toBe('VIG');
    const nutter = terminalByFirmsCode('WBA5')!;
    expect(terminalByFirmsCode('Y738')).toBe(nutter);
    expect(terminalById(nutter.id)).toBe(nutter);
    expect(terminalByFirmsCode('ZZZZ')).toBeUndefined();
  });

  it('finds a terminal by SMDG code within a port; SMDG codes repeat across ports', () => {
    expect(terminalBySmdgCode('dlt', 'cavan')?.name).toBe('GCT Deltaport');
    expect(terminalBySmdgCode('APMT', 'USLAX')?.firmsCode).toBe('W185');
    expect(terminalBySmdgCode('APMT', 'USOAK')).toBeUndefined();
    expect(terminalsBySmdgCode('APMT').map((t) => t.portLocode)).toEqual(['USNYC', 'USMOB', 'USLAX', 'MXLZC']);
    expect(terminalsBySmdgCode('MATS').map((t) => t.portLocode)).toEqual(['USOAK', 'USHNL']);
    expect(terminalsBySmdgCode('NONE')).toEqual([]);
  });

  it('lists the terminals of a port', () => {
    expect(terminalsByPortLocode('usorf').map((t) => t.nickname)).toEqual(['NIT', 'PMT', 'VIG', 'RMT']);
    expect(terminalsByPortLocode('USLGB')).toHaveLength(9);
    expect(terminalsByPortLocode('NLRTM')).toEqual([]);
  });

  it('puts every terminal at a port of PORTS, in the same country and time zone', () => {
    for (const t of TERMINALS) {
      const port = portByLocode(t.portLocode);
      expect(port, t.name).toBeDefined();
      expect(port?.countryCode, t.name).toBe(t.country);
      expect(port?.timeZone, t.name).toBe(t.timezone);
    }
  });

  it('keys ids on FIRMS, else port and SMDG, else port and reference-API code', () => {
    const key = (t: Terminal | undefined) => (t ? terminalNaturalKey(t) : undefined);
    expect(key(terminalByFirmsCode('N195'))).toBe('N195');
    expect(key(terminalBySmdgCode('DLT', 'CAVAN'))).toBe('CAVAN:DLT');
    expect(key(TERMINALS.find((t) => t.refApiFacilityCode === 'STA'))).toBe('USLGB:REF:STA');
    expect(() => terminalNaturalKey({ firmsCode: null, smdgCode: null, refApiFacilityCode: null, portLocode: 'USLAX' })).toThrow();
  });
});

describe('rail hubs', () => {
  it('has 34 hubs: 29 US, 5 CA', () => {
    expect(RAIL_HUBS).toHaveLength(34);
    expect(RAIL_HUBS.filter((h) => h.countryCode === 'US')).toHaveLength(29);
  });

  it('finds a hub by LOCODE, by ramp LOCODE and by id', () => {
    const chicago = railHubByLocode('uschi')!;
    expect(chicago.railroads).toEqual(['BNSF', 'UP', 'CN', 'CPKC', 'CSX', 'NS']);
    expect(railHubByRampLocode('USJOT')).toBe(chicago);
    expect(railHubByRampLocode('cabrp')?.locode).toBe('CATOR');
    expect(railHubById(chicago.id)).toBe(chicago);
    expect(railHubByLocode('USLAX')).toBeUndefined();
  });

  it('names only railroads of RAILROADS, at least one per hub', () => {
    for (const h of RAIL_HUBS) {
      expect(h.railroads.length, h.locode).toBeGreaterThan(0);
      for (const r of h.railroads) expect(railroadById(r), `${h.locode} ${r}`).toBeDefined();
    }
  });

  it('has coordinates in range and its own country in every LOCODE', () => {
    for (const h of RAIL_HUBS) {
      expect(Math.abs(h.lat), h.locode).toBeLessThanOrEqual(90);
      expect(Math.abs(h.lon), h.locode).toBeLessThanOrEqual(180);
      expect(h.locode.slice(0, 2), h.locode).toBe(h.countryCode);
      for (const ramp of h.rampLocodes) expect(ramp.slice(0, 2), ramp).toBe(h.countryCode);
    }
  });
});

describe('rail ramps, interchange cities and port catchments', () => {
  it('puts every ramp at a hub its railroad serves, in one of the hub’s ramp suburbs when coded, one per railroad and hub', () => {
    const seen = new Set<string>();
    for (const r of RAIL_RAMPS) {
      const hub = railHubByLocode(r.hubLocode);
      expect(hub, r.name).toBeDefined();
      expect(hub!.railroads, r.name).toContain(r.railroad);
      if (r.rampLocode) expect(hub!.rampLocodes, r.name).toContain(r.rampLocode);
      if (r.source) expect(r.source, r.name).toMatch(/^https?:\/\//);
      expect(seen.has(`${r.railroad}:${r.hubLocode}`), r.name).toBe(false);
      seen.add(`${r.railroad}:${r.hubLocode}`);
    }
  });

  it.each([
    ['BNSF', 'USCHI', 'BNSF Logistics Park Chicago'],
    ['UP', 'USCHI', 'Union Pacific Joliet Intermodal Terminal (Global IV)'],
    ['CSX', 'USCHI', 'CSX Bedford Park Intermodal Terminal'],
    ['NS', 'USCHI', 'NS Landers Intermodal Terminal'],
    ['CSX', 'USNBH', 'CSX Northwest Ohio Intermodal Terminal'],
    ['NS', 'USCMH', 'NS Rickenbacker Intermodal Terminal'],
    ['cn', 'cator', 'CN Brampton Intermodal Terminal'],
  ] as const)('names the %s ramp at %s: %s', (railroad, hub, name) => {
    expect(rampName(railroad, hub)).toBe(name);
  });

  it('has no ramp where the railroad does not run', () => {
    expect(rampName('BNSF', 'USCMH')).toBeUndefined();
    expect(railRamp('CSX', 'USLAX')).toBeUndefined();
  });

  it('interchanges only at hubs where at least two railroads have ramps', () => {
    for (const ic of RAIL_INTERCHANGE_CITIES) {
      expect(railHubByLocode(ic), ic).toBeDefined();
      expect(RAIL_RAMPS.filter((r) => r.hubLocode === ic).length, ic).toBeGreaterThanOrEqual(2);
    }
  });

  it('gives catchments only to ports of PORTS, made of known hubs with at least one ramp, never the port city itself', () => {
    for (const [port, hubs] of Object.entries(PORT_RAIL_CATCHMENTS)) {
      expect(portByLocode(port), port).toBeDefined();
      expect(new Set(hubs).size, port).toBe(hubs.length);
      for (const h of hubs) {
        expect(railHubByLocode(h), `${port} ${h}`).toBeDefined();
        expect(h, port).not.toBe(port);
        expect(
          RAIL_RAMPS.some((r) => r.hubLocode === h),
          `${port} ${h}`,
        ).toBe(true);
      }
    }
    expect(PORT_RAIL_CATCHMENTS.USCHS).not.toContain('USPHX');
    expect(PORT_RAIL_CATCHMENTS.USSAV).not.toContain('USHOU');
  });
});

describe('time zones', () => {
  it('every time zone is a valid IANA name', () => {
    const zones = new Set([...PORTS.map((p) => p.timeZone), ...TERMINALS.map((t) => t.timezone), ...RAIL_HUBS.map((h) => h.timeZone)]);
    expect([...zones].filter((z) => !isTimeZone(z))).toEqual([]);
  });
});

describe('wire ids', () => {
  const tables: [string, readonly { id: string }[]][] = [
    ['shipping_line', CARRIERS],
    ['port', PORTS],
    ['terminal', TERMINALS],
    ['metro_area', RAIL_HUBS],
  ];

  it.each(tables)('%s ids are UUIDv5 and unique', (_kind, records) => {
    for (const r of records) {
      expect(validate(r.id), r.id).toBe(true);
      expect(version(r.id), r.id).toBe(5);
      expect(r.id).toBe(r.id.toLowerCase());
    }
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
  });

  it('are unique across tables', () => {
    const all = tables.flatMap(([, records]) => records.map((r) => r.id));
    expect(new Set(all).size).toBe(all.length);
  });

  it('derive from the natural key with referenceId', () => {
    for (const c of CARRIERS) expect(c.id).toBe(referenceId('shipping_line', c.scac));
    for (const p of PORTS) expect(p.id).toBe(referenceId('port', p.locode));
    for (const t of TERMINALS) expect(t.id).toBe(referenceId('terminal', terminalNaturalKey(t)));
    for (const h of RAIL_HUBS) expect(h.id).toBe(referenceId('metro_area', h.locode));
  });

  it('are stable: these values are on the wire and must never change', () => {
    expect(carrierByScac('MAEU')?.id).toBe('d6bdce44-921f-59cf-b321-edc0c89438b1');
    expect(portByLocode('USLAX')?.id).toBe('e21a48da-9cc1-5734-bcbb-4ad5424e54ae');
    expect(railHubByLocode('USCHI')?.id).toBe('8fb3e8a5-ab6d-567d-912c-81988456658c');
    expect(terminalByFirmsCode('N195')?.id).toBe('48fba20f-7933-578e-a5dd-bcc9da06f96a');
    expect(terminalBySmdgCode('DLT', 'CAVAN')?.id).toBe('3b1a402b-f5bc-540f-9c1d-eefbe029be4c');
    expect(TERMINALS.find((t) => t.refApiFacilityCode === 'STA')?.id).toBe('82c92895-afbf-556b-bfc1-3731e15c4843');
  });
});

// The compiled facts live next to the checkout (../shared/reference/data) in CI and on engineers' machines; the
// product never reads them. Without that folder the comparison is skipped (failed under TIDEMARK_REQUIRE_REFERENCE=1).
const DATA = reference('data');
const DATA_DIR = DATA.path;

type CsvRow = Record<string, string>;

/** A tiny CSV reader: the files have no quoted fields (checked below), so splitting on commas is exact. */
function readCsv(file: string, header: readonly string[]): CsvRow[] {
  const text = readFileSync(path.join(DATA_DIR, file), 'utf8');
  expect(text, `${file} has quoted fields: use a real CSV parser`).not.toContain('"');
  expect(text, `${file} has CR line ends`).not.toContain('\r');
  const [first, ...lines] = text.replace(/\n$/, '').split('\n');
  expect(first?.split(','), `${file} header`).toEqual(header);
  return lines.map((line, i) => {
    const cells = line.split(',');
    expect(cells, `${file} line ${i + 2}`).toHaveLength(header.length);
    return Object.fromEntries(header.map((h, j) => [h, cells[j]!]));
  });
}

const list = (cell: string | undefined) => (cell ? cell.split(';') : []);
const nullable = (cell: string | undefined) => (cell ? cell : null);
function yesNo(cell: string | undefined): boolean {
  expect(['yes', 'no']).toContain(cell);
  return cell === 'yes';
}
/** A coordinate as a number, after checking the text has the four decimals `toFixed(4)` gives back. */
function coordinate(cell: string | undefined): number {
  const n = Number(cell);
  expect(n.toFixed(4)).toBe(cell);
  return n;
}
const withoutId = <T extends { id: string }>({ id: _id, ...rest }: T) => rest;

describeWithReference(DATA, 'tables match the CSVs in ../shared/reference/data', () => {
  it('carriers.csv', () => {
    const rows = readCsv('carriers.csv', [
      'scac',
      'alternative_scacs',
      'name',
      'short_name',
      'bol_prefixes',
      'container_prefixes',
      'track_by_bill_of_lading',
      'track_by_booking',
      'track_by_container',
      'default_enabled',
      'dcsa_tnt',
    ]);
    const expected = rows.map(
      (r): Omit<Carrier, 'id'> => ({
        scac: r.scac!,
        alternativeScacs: list(r.alternative_scacs),
        name: r.name!,
        shortName: r.short_name!,
        bolPrefixes: list(r.bol_prefixes),
        containerPrefixes: list(r.container_prefixes),
        trackByBillOfLading: yesNo(r.track_by_bill_of_lading),
        trackByBooking: yesNo(r.track_by_booking),
        trackByContainer: yesNo(r.track_by_container),
        defaultEnabled: yesNo(r.default_enabled),
        dcsaTnt: r.dcsa_tnt as Carrier['dcsaTnt'],
      }),
    );
    expect(rows).toHaveLength(38);
    expect(CARRIERS.map(withoutId)).toEqual(expected);
  });

  it('class1-railroads.csv', () => {
    const rows = readCsv('class1-railroads.csv', [
      'id',
      'name',
      'short_name',
      'scac_reference_api',
      'reporting_marks',
      'other_codes_seen',
      'hq_city',
      'hq_country',
      'countries_served',
      'api_auth_reported',
    ]);
    const expected = rows.map(
      (r): Railroad => ({
        id: r.id as Railroad['id'],
        name: r.name!,
        shortName: r.short_name!,
        scac: r.scac_reference_api!,
        reportingMarks: list(r.reporting_marks),
        otherCodes: list(r.other_codes_seen),
        hqCity: r.hq_city!,
        hqCountry: r.hq_country as Railroad['hqCountry'],
        countriesServed: list(r.countries_served) as Railroad['countriesServed'],
        apiAuthReported: r.api_auth_reported as Railroad['apiAuthReported'],
      }),
    );
    expect(rows).toHaveLength(6);
    expect(RAILROADS).toEqual(expected);
  });

  it('terminals-na.csv', () => {
    const rows = readCsv('terminals-na.csv', [
      'name',
      'nickname',
      'firms_code',
      'firms_code_alt',
      'ref_api_facility_code',
      'smdg_code',
      'port_name',
      'port_locode',
      'city',
      'state',
      'country',
      'timezone',
      'ref_api_coverage',
    ]);
    const expected = rows.map(
      (r): Omit<Terminal, 'id'> => ({
        name: r.name!,
        nickname: r.nickname!,
        firmsCode: nullable(r.firms_code),
        firmsCodeAlt: nullable(r.firms_code_alt),
        refApiFacilityCode: nullable(r.ref_api_facility_code),
        smdgCode: nullable(r.smdg_code),
        portName: r.port_name!,
        portLocode: r.port_locode!,
        city: r.city!,
        state: r.state!,
        country: r.country as Terminal['country'],
        timezone: r.timezone!,
        refApiCoverage: r.ref_api_coverage as Terminal['refApiCoverage'],
      }),
    );
    expect(rows).toHaveLength(89);
    expect(TERMINALS.map(withoutId)).toEqual(expected);
  });

  it('ports.csv', () => {
    const rows = readCsv('ports.csv', [
      'locode',
      'name',
      'country_code',
      'latitude',
      'longitude',
      'time_zone',
      'coord_source',
      'tz_source',
    ]);
    const expected = rows.map(
      (r): Omit<Port, 'id'> => ({
        locode: r.locode!,
        name: r.name!,
        countryCode: r.country_code!,
        latitude: coordinate(r.latitude),
        longitude: coordinate(r.longitude),
        timeZone: r.time_zone!,
      }),
    );
    expect(rows).toHaveLength(190);
    expect(PORTS.map(withoutId)).toEqual(expected);
  });

  it('inland-rail-hubs.csv', () => {
    const rows = readCsv('inland-rail-hubs.csv', [
      'locode',
      'name',
      'state_province',
      'country_code',
      'latitude',
      'longitude',
      'time_zone',
      'class1_railroads',
      'ramp_locodes',
    ]);
    const expected = rows.map(
      (r): Omit<RailHub, 'id'> => ({
        locode: r.locode!,
        name: r.name!,
        stateProvince: r.state_province!,
        countryCode: r.country_code as RailHub['countryCode'],
        lat: coordinate(r.latitude),
        lon: coordinate(r.longitude),
        timeZone: r.time_zone!,
        railroads: list(r.class1_railroads) as RailHub['railroads'],
        rampLocodes: list(r.ramp_locodes),
      }),
    );
    expect(rows).toHaveLength(34);
    expect(RAIL_HUBS.map(withoutId)).toEqual(expected);
  });
});

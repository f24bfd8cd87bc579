// North American inland intermodal rail destinations (29 US, 5 CA), served as `metro_area`s. Which Class I
// railroads serve each hub is best effort. Compiled facts; the tests compare this table with
// ../shared/reference/data/inland-rail-hubs.csv.
import { referenceId } from '../../lib/ids.js';
import type { RailroadId } from './railroads.js';
import { byId, freezeRecord, normalizeCode, uniqueIndex } from './table.js';

export type RailHubCountry = 'US' | 'CA';

export interface RailHub {
  /** Wire id of the `metro_area`: `referenceId('metro_area', locode)`. */
  readonly id: string;
  /** UN/LOCODE of the city. */
  readonly locode: string;
  readonly name: string;
  /** US state or CA province abbreviation. */
  readonly stateProvince: string;
  readonly countryCode: RailHubCountry;
  /** City centre, decimal degrees (four decimals in the source). */
  readonly lat: number;
  readonly lon: number;
  /** IANA time zone. */
  readonly timeZone: string;
  /** Class I railroads with intermodal service here (ids of `RAILROADS`; best effort). */
  readonly railroads: readonly RailroadId[];
  /** UN/LOCODEs of the suburbs where the main ramps are (USEWI Elwood and USJOT Joliet for Chicago). */
  readonly rampLocodes: readonly string[];
}

type Row = readonly [
  locode: string,
  name: string,
  stateProvince: string,
  countryCode: RailHubCountry,
  lat: number,
  lon: number,
  timeZone: string,
  railroads: readonly RailroadId[],
  rampLocodes: readonly string[],
];

// LOCODE, name, state/province, country, latitude, longitude, time zone, Class I railroads, ramp LOCODEs
// biome-ignore format: one row per hub
const ROWS: readonly Row[] = [
  ['USCHI', 'Chicago', 'IL', 'US', 41.8781, -87.6298, 'America/Chicago', ['BNSF', 'UP', 'CN', 'CPKC', 'CSX', 'NS'], ['USEWI', 'USJOT', 'USRCX', 'USBNV', 'USHRY', 'USXDN']],
  ['USDAL', 'Dallas', 'TX', 'US', 32.7767, -96.7970, 'America/Chicago', ['UP', 'CPKC'], ['USWXR', 'USMSQ']],
  ['USFWT', 'Fort Worth', 'TX', 'US', 32.7555, -97.3308, 'America/Chicago', ['BNSF'], ['USHXC']],
  ['USHOU', 'Houston', 'TX', 'US', 29.7604, -95.3698, 'America/Chicago', ['UP', 'BNSF'], []],
  ['USSAT', 'San Antonio', 'TX', 'US', 29.4241, -98.4936, 'America/Chicago', ['UP'], []],
  ['USLRD', 'Laredo', 'TX', 'US', 27.5306, -99.4803, 'America/Chicago', ['UP', 'CPKC'], []],
  ['USELP', 'El Paso', 'TX', 'US', 31.7619, -106.4850, 'America/Denver', ['UP', 'BNSF'], ['USSXT']],
  ['USMKC', 'Kansas City', 'MO', 'US', 39.0997, -94.5786, 'America/Chicago', ['BNSF', 'UP', 'NS', 'CPKC'], ['USEEU', 'USKCK']],
  ['USSTL', 'Saint Louis', 'MO', 'US', 38.6270, -90.1994, 'America/Chicago', ['BNSF', 'UP', 'NS', 'CSX'], []],
  ['USMEM', 'Memphis', 'TN', 'US', 35.1495, -90.0490, 'America/Chicago', ['BNSF', 'UP', 'CN', 'CSX', 'NS'], ['USMQM', 'USROQ']],
  ['USBNA', 'Nashville', 'TN', 'US', 36.1627, -86.7816, 'America/Chicago', ['CSX'], []],
  ['USLUI', 'Louisville', 'KY', 'US', 38.2527, -85.7585, 'America/Kentucky/Louisville', ['NS', 'CSX'], []],
  ['USCVG', 'Cincinnati', 'OH', 'US', 39.1031, -84.5120, 'America/New_York', ['NS', 'CSX'], []],
  ['USCMH', 'Columbus', 'OH', 'US', 39.9612, -82.9988, 'America/New_York', ['NS', 'CSX'], ['USLCK']],
  ['USCLE', 'Cleveland', 'OH', 'US', 41.4993, -81.6944, 'America/New_York', ['NS', 'CSX'], []],
  ['USNBH', 'North Baltimore', 'OH', 'US', 41.1828, -83.6783, 'America/New_York', ['CSX'], []],
  ['USDET', 'Detroit', 'MI', 'US', 42.3314, -83.0458, 'America/Detroit', ['CN', 'CPKC', 'CSX', 'NS'], []],
  ['USIND', 'Indianapolis', 'IN', 'US', 39.7684, -86.1581, 'America/Indiana/Indianapolis', ['CSX'], []],
  ['USPIT', 'Pittsburgh', 'PA', 'US', 40.4406, -79.9959, 'America/New_York', ['NS', 'CSX'], []],
  ['USHAR', 'Harrisburg', 'PA', 'US', 40.2732, -76.8867, 'America/New_York', ['NS'], []],
  ['USORH', 'Worcester', 'MA', 'US', 42.2626, -71.8023, 'America/New_York', ['CSX'], []],
  ['USATL', 'Atlanta', 'GA', 'US', 33.7490, -84.3880, 'America/New_York', ['NS', 'CSX'], ['USAUL', 'USFBN']],
  ['USBHM', 'Birmingham', 'AL', 'US', 33.5186, -86.8104, 'America/Chicago', ['NS', 'BNSF'], ['USMKX']],
  ['USCLT', 'Charlotte', 'NC', 'US', 35.2271, -80.8431, 'America/New_York', ['NS', 'CSX'], []],
  ['USGXX', 'Greer (Inland Port Greer)', 'SC', 'US', 34.9387, -82.2271, 'America/New_York', ['NS'], []],
  ['USSTP', 'Minneapolis-Saint Paul', 'MN', 'US', 44.9537, -93.0900, 'America/Chicago', ['BNSF', 'CPKC'], []],
  ['USDEN', 'Denver', 'CO', 'US', 39.7392, -104.9903, 'America/Denver', ['BNSF', 'UP'], []],
  ['USSLC', 'Salt Lake City', 'UT', 'US', 40.7608, -111.8910, 'America/Denver', ['UP', 'BNSF'], []],
  ['USPHX', 'Phoenix', 'AZ', 'US', 33.4484, -112.0740, 'America/Phoenix', ['BNSF', 'UP'], []],
  ['CATOR', 'Toronto', 'ON', 'CA', 43.6532, -79.3832, 'America/Toronto', ['CN', 'CPKC'], ['CABRP', 'CAVGN']],
  ['CAMTR', 'Montreal', 'QC', 'CA', 45.5017, -73.5673, 'America/Toronto', ['CN', 'CPKC'], []],
  ['CACAL', 'Calgary', 'AB', 'CA', 51.0447, -114.0719, 'America/Edmonton', ['CN', 'CPKC'], []],
  ['CAEDM', 'Edmonton', 'AB', 'CA', 53.5461, -113.4938, 'America/Edmonton', ['CN', 'CPKC'], []],
  ['CAWNP', 'Winnipeg', 'MB', 'CA', 49.8951, -97.1384, 'America/Winnipeg', ['CN', 'CPKC'], []],
];

export const RAIL_HUBS: readonly RailHub[] = Object.freeze(
  ROWS.map(([locode, name, stateProvince, countryCode, lat, lon, timeZone, railroads, rampLocodes]) =>
    freezeRecord({
      id: referenceId('metro_area', locode),
      locode,
      name,
      stateProvince,
      countryCode,
      lat,
      lon,
      timeZone,
      railroads: [...railroads],
      rampLocodes: [...rampLocodes],
    }),
  ),
);

const BY_LOCODE = uniqueIndex(RAIL_HUBS, (h) => [h.locode], 'rail hub LOCODE');
const BY_RAMP = uniqueIndex(RAIL_HUBS, (h) => h.rampLocodes, 'ramp LOCODE');

/** The rail hub with this (city) UN/LOCODE (case-insensitive). */
export function railHubByLocode(locode: string): RailHub | undefined {
  return BY_LOCODE.get(normalizeCode(locode));
}

/** The rail hub one of whose ramps is at this UN/LOCODE (`USJOT` Joliet → Chicago). */
export function railHubByRampLocode(locode: string): RailHub | undefined {
  return BY_RAMP.get(normalizeCode(locode));
}

/** The rail hub with this `metro_area` wire id. */
export const railHubById: (id: string) => RailHub | undefined = byId(RAIL_HUBS);

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

// ------------------------------------------------------------------------------------------- rail ramps

/**
 * A railroad's intermodal terminal (ramp) at a hub: where its trains load and unload containers. `source` is a
 * public page confirmed offline while this table was written, or null where the name is public knowledge not
 * checked offline (best effort; the tests check every ramp's railroad serves its hub).
 */
export interface RailRamp {
  readonly railroad: RailroadId;
  /** UN/LOCODE of the hub (`RAIL_HUBS`). */
  readonly hubLocode: string;
  readonly name: string;
  /** UN/LOCODE of the suburb the ramp is in, one of the hub's `rampLocodes`; null when in the city or not coded. */
  readonly rampLocode: string | null;
  readonly source: string | null;
}

type RampRow = readonly [railroad: RailroadId, hubLocode: string, name: string, rampLocode: string | null, source: string | null];

// biome-ignore format: one row per ramp
const RAMP_ROWS: readonly RampRow[] = [
  ['BNSF', 'USCHI', 'BNSF Logistics Park Chicago', 'USEWI', 'http://www.bnsf.com/news-media/customer-notifications/notification.page?notId=taking-bold-actions-to-improve-efficiency-at-logistics-park-chicago'],
  ['BNSF', 'USMKC', 'BNSF Logistics Park Kansas City', null, 'https://www.areadevelopment.com/newsitems/10-17-2013/bnsf-intermodal-facility-edgerton-kansas892342.shtml'],
  ['BNSF', 'USFWT', 'BNSF Alliance Intermodal Facility', 'USHXC', 'http://www.progressiverailroading.com/bnsf_railway/news/BNSF-christens-Chicago-area-multi-modal-facility-ponders-similar-all-service-centers--4528'],
  ['BNSF', 'USMEM', 'BNSF Memphis Intermodal Facility (Tennessee Yard)', null, null],
  ['BNSF', 'USDEN', 'BNSF Denver Intermodal Facility', null, null],
  ['BNSF', 'USPHX', 'BNSF Phoenix Intermodal Facility', null, null],
  ['BNSF', 'USHOU', 'BNSF Houston (Pearland) Intermodal Facility', null, null],
  ['BNSF', 'USELP', 'BNSF El Paso Intermodal Facility', null, null],
  ['BNSF', 'USSTP', 'BNSF St. Paul (Midway) Intermodal Facility', null, null],
  ['BNSF', 'USBHM', 'BNSF Birmingham Intermodal Facility', null, null],
  ['BNSF', 'USSTL', 'BNSF St. Louis (Lindenwood) Intermodal Terminal', null, 'https://www.thefreightway.com/why-stl-region/intermodal-terminals/'],
  ['UP', 'USCHI', 'Union Pacific Joliet Intermodal Terminal (Global IV)', 'USJOT', 'https://www.uprr.com/newsinfo/releases/capital_investment/2010/1018_jitopening.shtml'],
  ['UP', 'USDAL', 'Union Pacific Dallas Intermodal Terminal', 'USWXR', null],
  ['UP', 'USMEM', 'Union Pacific Marion Intermodal Terminal', 'USMQM', null],
  ['UP', 'USSLC', 'Union Pacific Salt Lake City Intermodal Terminal', null, null],
  ['UP', 'USDEN', 'Union Pacific Denver Intermodal Terminal', null, null],
  ['UP', 'USHOU', 'Union Pacific Englewood Intermodal Terminal', null, null],
  ['UP', 'USSAT', 'Union Pacific San Antonio Intermodal Terminal', null, null],
  ['UP', 'USELP', 'Union Pacific Santa Teresa Intermodal Terminal', 'USSXT', null],
  ['UP', 'USSTL', 'Union Pacific Dupo Intermodal Terminal', null, null],
  ['CSX', 'USCHI', 'CSX Bedford Park Intermodal Terminal', null, 'https://www.chicagobusiness.com/article/20150815/ISSUE01/308159990/volume-at-chicago-s-intermodal-rail-yards-rises-a-sign-of-a-strengthening-economy'],
  ['CSX', 'USNBH', 'CSX Northwest Ohio Intermodal Terminal', null, 'https://freightwaves.com/news/csx-opens-ohio-terminal'],
  ['CSX', 'USCMH', 'CSX Columbus Intermodal Terminal', null, 'https://rickenbackeradvantage.com/rail-intermodal'],
  ['CSX', 'USCLE', 'CSX Cleveland (Collinwood) Intermodal Terminal', null, null],
  ['CSX', 'USATL', 'CSX Fairburn Intermodal Terminal', 'USFBN', 'https://fbjna.com/sponsored-content-csx'],
  ['CSX', 'USCLT', 'CSX Charlotte Intermodal Terminal', null, null],
  ['CSX', 'USBNA', 'CSX Nashville Intermodal Terminal', null, null],
  ['CSX', 'USLUI', 'CSX Louisville Intermodal Terminal', null, null],
  ['CSX', 'USIND', 'CSX Avon Intermodal Terminal', null, 'https://akronrrclub.wordpress.com/tag/northwest-ohio-intermodal-terminal/'],
  ['CSX', 'USMEM', 'CSX Memphis Intermodal Terminal', null, null],
  ['CSX', 'USPIT', 'CSX Pittsburgh Intermodal Terminal', null, null],
  ['CSX', 'USORH', 'CSX Worcester Intermodal Terminal', null, null],
  ['CSX', 'USSTL', 'CSX East St. Louis (Rose Lake) Intermodal Terminal', null, 'https://www.thefreightway.com/why-stl-region/intermodal-terminals/'],
  ['NS', 'USCHI', 'NS Landers Intermodal Terminal', null, 'https://akronrrclub.wordpress.com/tag/ns-intermodal-terminals/'],
  ['NS', 'USCMH', 'NS Rickenbacker Intermodal Terminal', 'USLCK', 'http://www.ajot.com/news/norfolk-southern-opens-rickenbacker-intermodal-terminal'],
  ['NS', 'USMEM', 'NS Memphis Regional Intermodal Facility (Rossville)', 'USROQ', 'https://www.memphisdailynews.com/news/2012/jul/27/rail-yard-opens-in-rossville/'],
  ['NS', 'USBHM', 'NS Birmingham Regional Intermodal Facility', 'USMKX', 'https://ble-t.org/news/norfolk-southern-to-launch-more-intermodal-services-along-crescent-corridor'],
  ['NS', 'USLUI', 'NS Louisville (Buechel) Intermodal Terminal', null, 'https://www.freightwaves.com/news/norfolk-southern-reopens-kentucky-intermodal-terminal'],
  ['NS', 'USSTL', 'NS Luther Intermodal Yard', null, 'https://www.thefreightway.com/why-stl-region/intermodal-terminals/'],
  ['NS', 'USATL', 'NS Austell Intermodal Terminal', 'USAUL', null],
  ['NS', 'USCLT', 'NS Charlotte Regional Intermodal Facility', null, null],
  ['NS', 'USHAR', 'NS Harrisburg Intermodal Terminal', null, null],
  ['NS', 'USPIT', 'NS Pittsburgh Intermodal Terminal', null, null],
  ['NS', 'USCLE', 'NS Maple Heights Intermodal Terminal', null, null],
  ['NS', 'USCVG', 'NS Cincinnati (Gest Street) Intermodal Terminal', null, null],
  ['NS', 'USDET', 'NS Detroit (Livernois) Intermodal Terminal', null, null],
  ['NS', 'USMKC', 'NS Kansas City (Voltz) Intermodal Terminal', null, null],
  ['NS', 'USGXX', 'Inland Port Greer', null, null],
  ['CN', 'USCHI', 'CN Chicago Intermodal Terminal (Harvey)', 'USHRY', null],
  ['CN', 'USMEM', 'CN Memphis Intermodal Terminal', null, null],
  ['CN', 'USDET', 'CN Detroit Intermodal Terminal (Ferndale)', null, null],
  ['CN', 'CATOR', 'CN Brampton Intermodal Terminal', 'CABRP', 'https://freightwaves.com/news/cn-improves-toronto-area-terminal'],
  ['CN', 'CAMTR', 'CN Montreal Intermodal Terminal (Taschereau)', null, null],
  ['CN', 'CACAL', 'CN Calgary Logistics Park', null, null],
  ['CN', 'CAEDM', 'CN Edmonton Intermodal Terminal', null, null],
  ['CN', 'CAWNP', 'CN Winnipeg Intermodal Terminal', null, null],
  ['CPKC', 'USCHI', 'CPKC Bensenville Intermodal Terminal', 'USBNV', null],
  ['CPKC', 'CATOR', 'CPKC Vaughan Intermodal Facility', 'CAVGN', 'https://www.insidelogistics.ca/transportation/expansion-meeting-demand-for-more-and-faster-service-cpr-162669/'],
  ['CPKC', 'CAMTR', 'CPKC Lachine Intermodal Terminal', null, null],
  ['CPKC', 'CACAL', 'CPKC Calgary Intermodal Terminal', null, null],
  ['CPKC', 'CAEDM', 'CPKC Edmonton Intermodal Terminal', null, null],
  ['CPKC', 'CAWNP', 'CPKC Winnipeg Intermodal Terminal', null, null],
  ['CPKC', 'USSTP', 'CPKC Minneapolis (Shoreham) Intermodal Terminal', null, null],
  ['CPKC', 'USDAL', 'CPKC Wylie Intermodal Terminal', null, null],
  ['CPKC', 'USMKC', 'CPKC Kansas City Intermodal Terminal', null, null],
];

export const RAIL_RAMPS: readonly RailRamp[] = Object.freeze(
  RAMP_ROWS.map(([railroad, hubLocode, name, rampLocode, source]) => freezeRecord({ railroad, hubLocode, name, rampLocode, source })),
);

const RAMP_BY_KEY = uniqueIndex(RAIL_RAMPS, (r) => [`${r.railroad}:${r.hubLocode}`], 'railroad ramp');

/** The railroad's intermodal ramp at the hub, or undefined when it has none there. */
export function railRamp(railroadId: string, hubLocode: string): RailRamp | undefined {
  return RAMP_BY_KEY.get(`${normalizeCode(railroadId)}:${normalizeCode(hubLocode)}`);
}

/** The name of the railroad's intermodal ramp at the hub (`BNSF Logistics Park Chicago`), or undefined. */
export function rampName(railroadId: string, hubLocode: string): string | undefined {
  return railRamp(railroadId, hubLocode)?.name;
}

/**
 * Hubs where one Class I hands intermodal traffic to another (steel-wheel or cross-town): the classic gateways
 * between the western (BNSF, UP), eastern (CSX, NS) and Canadian (CN, CPKC) systems.
 */
export const RAIL_INTERCHANGE_CITIES: readonly string[] = Object.freeze(['USCHI', 'USMEM', 'USSTL', 'USMKC']);

/**
 * The inland hubs each North American port's import containers realistically go to by rail (its rail catchment:
 * direct double-stack services, or interline via an interchange city). Best effort, from the railroads' and
 * ports' published intermodal service maps (public knowledge, not checked offline).
 */
// biome-ignore format: one port per line
export const PORT_RAIL_CATCHMENTS: Readonly<Record<string, readonly string[]>> = {
  USLAX: ['USCHI', 'USMKC', 'USFWT', 'USDAL', 'USMEM', 'USDEN', 'USSLC', 'USPHX', 'USELP', 'USHOU', 'USSAT', 'USSTL', 'USBHM', 'USSTP', 'USCMH', 'USCLE', 'USNBH', 'USIND', 'USATL', 'USBNA', 'USLUI', 'USPIT', 'USDET', 'USCVG'],
  USLGB: ['USCHI', 'USMKC', 'USFWT', 'USDAL', 'USMEM', 'USDEN', 'USSLC', 'USPHX', 'USELP', 'USHOU', 'USSAT', 'USSTL', 'USBHM', 'USSTP', 'USCMH', 'USCLE', 'USNBH', 'USIND', 'USATL', 'USBNA', 'USLUI', 'USPIT', 'USDET', 'USCVG'],
  USOAK: ['USCHI', 'USMKC', 'USSLC', 'USDEN', 'USDAL', 'USFWT', 'USMEM', 'USSTL'],
  USSEA: ['USCHI', 'USSTP', 'USMKC', 'USMEM', 'USSTL', 'USDEN', 'USCMH', 'USCLE', 'USNBH', 'USDET'],
  USTIW: ['USCHI', 'USSTP', 'USMKC', 'USMEM', 'USSTL', 'USDEN', 'USCMH', 'USCLE', 'USNBH', 'USDET'],
  USPDX: ['USCHI', 'USSLC', 'USDEN', 'USSTL', 'USMEM', 'USDAL'],
  CAVAN: ['CATOR', 'CAMTR', 'CACAL', 'CAEDM', 'CAWNP', 'USCHI', 'USMEM', 'USDET'],
  CAPRR: ['CATOR', 'CAMTR', 'CACAL', 'CAEDM', 'CAWNP', 'USCHI', 'USMEM', 'USDET'],
  CAMTR: ['CATOR', 'CAWNP', 'USCHI', 'USDET'],
  CAHAL: ['CAMTR', 'CATOR', 'USCHI', 'USDET', 'USMEM'],
  USNYC: ['USCHI', 'USCMH', 'USCLE', 'USNBH', 'USPIT', 'USHAR', 'USCVG', 'USLUI', 'USDET', 'USIND', 'USMEM'],
  USPHL: ['USCHI', 'USCMH', 'USCLE', 'USNBH', 'USPIT', 'USHAR', 'USDET'],
  USBAL: ['USCHI', 'USCMH', 'USCLE', 'USNBH', 'USPIT', 'USHAR'],
  USORF: ['USCHI', 'USCMH', 'USCLE', 'USNBH', 'USCVG', 'USPIT', 'USHAR', 'USMEM', 'USLUI', 'USDET', 'USIND'],
  USSAV: ['USATL', 'USCLT', 'USMEM', 'USBHM', 'USBNA', 'USCHI', 'USLUI', 'USCVG'],
  USCHS: ['USGXX', 'USATL', 'USCLT', 'USMEM', 'USBHM', 'USCHI'],
  USJAX: ['USATL', 'USCLT', 'USBNA', 'USCHI', 'USMEM'],
  USHOU: ['USDAL', 'USFWT', 'USSAT', 'USELP', 'USMEM', 'USMKC', 'USCHI', 'USSTL'],
  USMOB: ['USMEM', 'USCHI', 'USATL', 'USBNA', 'USLUI'],
  USMSY: ['USMEM', 'USCHI', 'USDAL', 'USHOU', 'USSAT'],
};

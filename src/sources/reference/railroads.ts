// The six North American Class I railroads. `scac` is the SCAC the reference API puts in
// `pod_rail_carrier_scac` / `ind_rail_carrier_scac`. Compiled facts; the tests compare this table with
// ../shared/reference/data/class1-railroads.csv.
import { freezeRecord, normalizeCode, uniqueIndex } from './table.js';

export type RailroadId = 'BNSF' | 'UP' | 'CN' | 'CPKC' | 'CSX' | 'NS';
export type RailroadCountry = 'US' | 'CA' | 'MX';
/** How the railroad's customer APIs are publicly reported to authenticate (`unknown` = not verified). */
export type RailroadApiAuth = 'mtls_client_certificate' | 'oauth2_client_credentials' | 'unknown';

export interface Railroad {
  /** Short id used by the other tables (`RailHub.railroads`); not a wire id. */
  readonly id: RailroadId;
  readonly name: string;
  readonly shortName: string;
  /** The SCAC as the reference API emits it (BNSF, UPRR, CNRU, CPRS, CSXT, NSRR). */
  readonly scac: string;
  /** Current and legacy reporting marks, e.g. UP, SP, SSW for Union Pacific. */
  readonly reportingMarks: readonly string[];
  /** Other codes seen for the railroad in fixtures (`UP`). */
  readonly otherCodes: readonly string[];
  readonly hqCity: string;
  readonly hqCountry: RailroadCountry;
  readonly countriesServed: readonly RailroadCountry[];
  readonly apiAuthReported: RailroadApiAuth;
}

type Row = readonly [
  id: RailroadId,
  name: string,
  shortName: string,
  scac: string,
  reportingMarks: readonly string[],
  otherCodes: readonly string[],
  hqCity: string,
  hqCountry: RailroadCountry,
  countriesServed: readonly RailroadCountry[],
  apiAuthReported: RailroadApiAuth,
];

// id, name, short name, SCAC (reference API), reporting marks, other codes, HQ city, HQ country, countries served, API auth
// biome-ignore format: one row per railroad
const ROWS: readonly Row[] = [
  ['BNSF', 'BNSF Railway', 'BNSF', 'BNSF', ['BNSF', 'BN', 'ATSF'], [], 'Fort Worth', 'US', ['US', 'CA'], 'mtls_client_certificate'],
  ['UP', 'Union Pacific Railroad', 'Union Pacific', 'UPRR', ['UP', 'SP', 'SSW', 'DRGW', 'CNW', 'MP', 'WP'], ['UP'], 'Omaha', 'US', ['US'], 'oauth2_client_credentials'],
  ['CN', 'Canadian National Railway', 'CN', 'CNRU', ['CN', 'GTW', 'IC', 'WC', 'CCP', 'DMIR', 'BLE', 'EJE'], [], 'Montreal', 'CA', ['CA', 'US'], 'oauth2_client_credentials'],
  ['CPKC', 'Canadian Pacific Kansas City', 'CPKC', 'CPRS', ['CP', 'SOO', 'DH', 'DME', 'ICE', 'KCS', 'KCSM'], [], 'Calgary', 'CA', ['CA', 'US', 'MX'], 'unknown'],
  ['CSX', 'CSX Transportation', 'CSX', 'CSXT', ['CSXT'], [], 'Jacksonville', 'US', ['US', 'CA'], 'unknown'],
  ['NS', 'Norfolk Southern Railway', 'Norfolk Southern', 'NSRR', ['NS', 'NW', 'SOU'], [], 'Atlanta', 'US', ['US'], 'unknown'],
];

export const RAILROADS: readonly Railroad[] = Object.freeze(
  ROWS.map(([id, name, shortName, scac, reportingMarks, otherCodes, hqCity, hqCountry, countriesServed, apiAuthReported]) =>
    freezeRecord({
      id,
      name,
      shortName,
      scac,
      reportingMarks: [...reportingMarks],
      otherCodes: [...otherCodes],
      hqCity,
      hqCountry,
      countriesServed: [...countriesServed],
      apiAuthReported,
    }),
  ),
);

const BY_ID = uniqueIndex(RAILROADS, (r) => [r.id], 'railroad id');
const BY_CODE = uniqueIndex(RAILROADS, (r) => [r.id, r.scac, ...r.reportingMarks, ...r.otherCodes], 'railroad code');

/** The railroad with this table id (BNSF, UP, CN, CPKC, CSX, NS; case-insensitive). */
export function railroadById(id: string): Railroad | undefined {
  return BY_ID.get(normalizeCode(id));
}

/** The railroad known by this SCAC, reporting mark (current or legacy), other code or table id (case-insensitive). */
export function railroadByScacOrMark(code: string): Railroad | undefined {
  return BY_CODE.get(normalizeCode(code));
}

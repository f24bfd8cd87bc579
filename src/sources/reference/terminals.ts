// North American container terminals (68 US, 11 CA, 10 MX). Compiled facts; the tests compare this table with
// ../shared/reference/data/terminals-na.csv. `refApiCoverage` describes the reference API, not Tidemark.
import { referenceId } from '../../lib/ids.js';
import { byId, freezeRecord, groupIndex, normalizeCode, uniqueIndex } from './table.js';

export type TerminalCountry = 'US' | 'CA' | 'MX';
/**
 * `current`: in the reference API's 2026-08-14 coverage list; `previous`: in its 2020 list or listed as removed;
 * `none`: known only from an SMDG-based facilities sample.
 */
export type RefApiCoverage = 'current' | 'previous' | 'none';

export interface Terminal {
  /** Wire id of the `terminal`: `referenceId('terminal', terminalNaturalKey(terminal))`. */
  readonly id: string;
  readonly name: string;
  readonly nickname: string;
  /** US CBP FIRMS code; null outside the US and for a few US facilities. */
  readonly firmsCode: string | null;
  /** An older FIRMS code the terminal is still found by. */
  readonly firmsCodeAlt: string | null;
  /** The code the reference API lists (the FIRMS code in the US; for CA/MX numeric codes of unverified scheme). */
  readonly refApiFacilityCode: string | null;
  /** SMDG terminal code; unique only within a port (APMT and MATS are used at several ports). */
  readonly smdgCode: string | null;
  /** The port's name as terminal lists give it (`Virginia` for USORF), which can differ from `PORTS`. */
  readonly portName: string;
  /** UN/LOCODE of the port; every one is in `PORTS`. */
  readonly portLocode: string;
  readonly city: string;
  /** US state or CA province abbreviation, or ISO 3166-2 subdivision code for MX (TAM, BCN, MIC, COL, YUC, VER). */
  readonly state: string;
  readonly country: TerminalCountry;
  /** IANA time zone. */
  readonly timezone: string;
  readonly refApiCoverage: RefApiCoverage;
}

type Row = readonly [
  name: string,
  nickname: string,
  firmsCode: string | null,
  firmsCodeAlt: string | null,
  refApiFacilityCode: string | null,
  smdgCode: string | null,
  portName: string,
  portLocode: string,
  city: string,
  state: string,
  country: TerminalCountry,
  timezone: string,
  refApiCoverage: RefApiCoverage,
];

/**
 * The natural key behind a terminal's wire id: its FIRMS code (`N195`); without one, `<port LOCODE>:<SMDG code>`
 * (`CAVAN:DLT`), because SMDG codes repeat across ports; without either, `<port LOCODE>:REF:<reference-API code>`.
 */
export function terminalNaturalKey(t: Pick<Terminal, 'firmsCode' | 'smdgCode' | 'refApiFacilityCode' | 'portLocode'>): string {
  if (t.firmsCode) return normalizeCode(t.firmsCode);
  if (t.smdgCode) return `${normalizeCode(t.portLocode)}:${normalizeCode(t.smdgCode)}`;
  if (t.refApiFacilityCode) return `${normalizeCode(t.portLocode)}:REF:${normalizeCode(t.refApiFacilityCode)}`;
  throw new Error(`reference data: terminal at ${t.portLocode} has no FIRMS, SMDG or reference-API code`);
}

// name, nickname, FIRMS, FIRMS (older), reference-API code, SMDG, port name, port LOCODE, city, state, country,
// time zone, reference-API coverage
// biome-ignore format: one row per terminal
const ROWS: readonly Row[] = [
  ['Seagirt Marine Terminal', 'Seagirt', 'C324', null, 'C324', 'SMT', 'Baltimore', 'USBAL', 'Baltimore', 'MD', 'US', 'America/New_York', 'current'],
  ['Dundalk Marine Terminal', 'Dundalk', 'A321', null, 'A321', 'DMT', 'Baltimore', 'USBAL', 'Baltimore', 'MD', 'US', 'America/New_York', 'previous'],
  ['Paul W. Conley Container Terminal', 'Conley', 'A295', null, 'A295', null, 'Boston', 'USBOS', 'Boston', 'MA', 'US', 'America/New_York', 'previous'],
  ['Hugh K. Leatherman Terminal', 'Leatherman', 'LCT9', null, 'LCT9', 'HLT', 'Charleston', 'USCHS', 'North Charleston', 'SC', 'US', 'America/New_York', 'current'],
  ['North Charleston Terminal', 'North Charleston', 'L391', null, 'L391', 'NCMT', 'Charleston', 'USCHS', 'North Charleston', 'SC', 'US', 'America/New_York', 'current'],
  ['Wando Welch Terminal', 'Wando Welch', 'N598', null, 'N598', 'WWMT', 'Charleston', 'USCHS', 'Mount Pleasant', 'SC', 'US', 'America/New_York', 'current'],
  ['Blount Island Marine Terminal', 'SSA Cooper', 'N296', null, 'N296', 'BLOJX', 'Jacksonville', 'USJAX', 'Jacksonville', 'FL', 'US', 'America/New_York', 'current'],
  ['TraPac Jacksonville (Dames Point)', 'TraPac Jacksonville', 'M029', null, 'M029', 'TRAJX', 'Jacksonville', 'USJAX', 'Jacksonville', 'FL', 'US', 'America/New_York', 'current'],
  ['TOTE Maritime Jacksonville', 'TOTE', 'N762', null, 'N762', null, 'Jacksonville', 'USJAX', 'Jacksonville', 'FL', 'US', 'America/New_York', 'current'],
  ['Talleyrand Marine Terminal', 'Talleyrand', null, null, null, 'TMT', 'Jacksonville', 'USJAX', 'Jacksonville', 'FL', 'US', 'America/New_York', 'none'],
  ['Port of Miami Terminal Operating Company', 'POMTOC', 'L239', null, 'L239', 'POM', 'Miami', 'USMIA', 'Miami', 'FL', 'US', 'America/New_York', 'current'],
  ['South Florida Container Terminal', 'SFCT', 'N775', null, 'N775', 'SOU', 'Miami', 'USMIA', 'Miami', 'FL', 'US', 'America/New_York', 'current'],
  ['Seaboard Marine Terminal Miami', 'Seaboard Miami', null, null, null, 'SML', 'Miami', 'USMIA', 'Miami', 'FL', 'US', 'America/New_York', 'none'],
  ['Port Everglades Terminal', 'PET', 'O664', null, 'O664', 'PET', 'Port Everglades', 'USPEF', 'Fort Lauderdale', 'FL', 'US', 'America/New_York', 'current'],
  ['Florida International Terminal', 'FIT', 'N751', null, 'N751', 'FIT', 'Port Everglades', 'USPEF', 'Fort Lauderdale', 'FL', 'US', 'America/New_York', 'previous'],
  ['Hyde Shipping Terminal', 'Hyde', null, null, null, 'HYDE', 'Port Everglades', 'USPEF', 'Fort Lauderdale', 'FL', 'US', 'America/New_York', 'none'],
  ['APM Terminals Elizabeth', 'Port Elizabeth', 'E425', null, 'E425', 'APMT', 'New York/New Jersey', 'USNYC', 'Elizabeth', 'NJ', 'US', 'America/New_York', 'current'],
  ['Maher Terminals', 'Maher', 'E416', null, 'E416', 'MAHER', 'New York/New Jersey', 'USNYC', 'Elizabeth', 'NJ', 'US', 'America/New_York', 'current'],
  ['Port Newark Container Terminal', 'PNCT', 'F577', null, 'F577', 'PNCT', 'New York/New Jersey', 'USNYC', 'Newark', 'NJ', 'US', 'America/New_York', 'current'],
  ['GCT Bayonne', 'GCTB', 'E364', null, 'E364', 'GTC', 'New York/New Jersey', 'USNYC', 'Bayonne', 'NJ', 'US', 'America/New_York', 'current'],
  ['GCT New York', 'GCT NY', 'E005', null, 'E005', 'NYCT', 'New York/New Jersey', 'USNYC', 'Staten Island', 'NY', 'US', 'America/New_York', 'current'],
  ['Red Hook Container Terminal', 'Red Hook', null, null, null, 'RHCT', 'New York/New Jersey', 'USNYC', 'Brooklyn', 'NY', 'US', 'America/New_York', 'none'],
  ['Packer Avenue Marine Terminal', 'Packer Avenue', 'C095', null, 'C095', 'PAMT', 'Philadelphia', 'USPHL', 'Philadelphia', 'PA', 'US', 'America/New_York', 'current'],
  ['Tioga Marine Terminal', 'Tioga', 'B197', null, 'B197', null, 'Philadelphia', 'USPHL', 'Philadelphia', 'PA', 'US', 'America/New_York', 'current'],
  ['Garden City Terminal', 'Garden City', 'L737', null, 'L737', 'GCMT', 'Savannah', 'USSAV', 'Garden City', 'GA', 'US', 'America/New_York', 'current'],
  ['Ocean Terminal', 'Ocean Terminal', null, null, null, 'OCT', 'Savannah', 'USSAV', 'Savannah', 'GA', 'US', 'America/New_York', 'none'],
  ['Norfolk International Terminals', 'NIT', 'L005', null, 'L005', 'NIT', 'Virginia', 'USORF', 'Norfolk', 'VA', 'US', 'America/New_York', 'current'],
  ['Portsmouth Marine Terminal', 'PMT', 'L045', null, 'L045', 'PMT', 'Virginia', 'USORF', 'Portsmouth', 'VA', 'US', 'America/New_York', 'current'],
  ['Virginia International Gateway', 'VIG', 'N195', null, 'N195', 'VIG', 'Virginia', 'USORF', 'Portsmouth', 'VA', 'US', 'America/New_York', 'current'],
  ['Richmond Marine Terminal', 'RMT', 'LAQ4', null, 'LAQ4', null, 'Virginia', 'USORF', 'Richmond', 'VA', 'US', 'America/New_York', 'previous'],
  ['Port of Wilmington Container Terminal', 'Wilmington NC', 'L194', null, 'L194', 'NCSPA', 'Wilmington (NC)', 'USILM', 'Wilmington', 'NC', 'US', 'America/New_York', 'current'],
  ['Barbours Cut Container Terminal', 'Barbours Cut', 'S787', null, 'S787', 'BCMT', 'Houston', 'USHOU', 'La Porte', 'TX', 'US', 'America/Chicago', 'current'],
  ['Bayport Container Terminal', 'Bayport', 'V136', null, 'V136', 'BPTM', 'Houston', 'USHOU', 'Pasadena', 'TX', 'US', 'America/Chicago', 'current'],
  ['APM Terminals Mobile', 'APM Mobile', 'R103', null, 'R103', 'APMT', 'Mobile', 'USMOB', 'Mobile', 'AL', 'US', 'America/Chicago', 'current'],
  ['Napoleon Avenue Container Terminal', 'Napoleon', 'P260', null, 'P260', 'NOLA', 'New Orleans', 'USMSY', 'New Orleans', 'LA', 'US', 'America/Chicago', 'current'],
  ['New Orleans Terminal', 'Milan', 'Q795', null, 'Q795', null, 'New Orleans', 'USMSY', 'New Orleans', 'LA', 'US', 'America/Chicago', 'current'],
  ['Tampa Bay Container Terminal', 'Tampa Bay', 'M669', null, 'M669', null, 'Tampa', 'USTPA', 'Tampa', 'FL', 'US', 'America/New_York', 'current'],
  ['APM Terminals Los Angeles (Pier 400)', 'APMT', 'W185', null, 'W185', 'APMT', 'Los Angeles', 'USLAX', 'San Pedro', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Everport Terminal Services', 'ETS', 'Y124', null, 'Y124', 'ETS', 'Los Angeles', 'USLAX', 'Terminal Island', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Fenix Marine Services', 'FMS', 'Y257', null, 'Y257', 'EAGLE', 'Los Angeles', 'USLAX', 'Terminal Island', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['TraPac Los Angeles', 'TraPac LA', 'Y258', null, 'Y258', 'TRAP', 'Los Angeles', 'USLAX', 'Wilmington', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['West Basin Container Terminal', 'WBCT', 'Y773', null, 'Y773', 'WBCT', 'Los Angeles', 'USLAX', 'San Pedro', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Yusen Terminals', 'YTI', 'Y790', null, 'Y790', 'YUSEN', 'Los Angeles', 'USLAX', 'Terminal Island', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['International Transportation Service', 'ITS', 'Y309', null, 'Y309', 'ITS', 'Long Beach', 'USLGB', 'Long Beach', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Long Beach Container Terminal (Pier E)', 'LBCT', 'WAC8', null, 'WAC8', 'LBCT', 'Long Beach', 'USLGB', 'Long Beach', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Long Beach Container Terminal (Pier F)', 'LBCT Pier F', 'W183', null, 'W183', null, 'Long Beach', 'USLGB', 'Long Beach', 'CA', 'US', 'America/Los_Angeles', 'previous'],
  ['Pacific Container Terminal (Pier J)', 'PCT', 'W182', null, 'W182', 'SSAPCT', 'Long Beach', 'USLGB', 'Long Beach', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['SSA Terminal A (Pier A)', 'Pier A', 'Z978', null, 'Z978', 'SSATA', 'Long Beach', 'USLGB', 'Long Beach', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['SSA Terminal C (Matson)', 'Pier C', null, null, null, 'MATU', 'Long Beach', 'USLGB', 'Long Beach', 'CA', 'US', 'America/Los_Angeles', 'none'],
  ['Total Terminals International (Pier T)', 'TTI', 'Z952', null, 'Z952', 'TTI', 'Long Beach', 'USLGB', 'Long Beach', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Shippers Transport Express', 'STE', null, null, 'STA', null, 'Long Beach', 'USLGB', 'Long Beach', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Shippers Transport Express - Carson', 'STE Carson', 'Z773', null, 'Z773', null, 'Long Beach', 'USLGB', 'Carson', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Port Hueneme', 'Hueneme', null, null, null, 'HUE', 'Port Hueneme', 'USNTD', 'Port Hueneme', 'CA', 'US', 'America/Los_Angeles', 'none'],
  ['Oakland International Container Terminal', 'OICT', 'Z985', null, 'Z985', 'B58', 'Oakland', 'USOAK', 'Oakland', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['TraPac Oakland', 'TraPac Oakland', 'Y549', null, 'Y549', 'TPOAK', 'Oakland', 'USOAK', 'Oakland', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Ben E. Nutter Terminal', 'Everport Oakland', 'WBA5', 'Y738', 'WBA5', 'BENT', 'Oakland', 'USOAK', 'Oakland', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Matson Terminal Oakland', 'Matson Oakland', null, null, null, 'MATS', 'Oakland', 'USOAK', 'Oakland', 'CA', 'US', 'America/Los_Angeles', 'none'],
  ['Shippers Transport Express Oakland', 'STE Oakland', null, null, 'STO', null, 'Oakland', 'USOAK', 'Oakland', 'CA', 'US', 'America/Los_Angeles', 'current'],
  ['Terminal 6', 'T6', 'X005', null, 'X005', 'PT6', 'Portland (OR)', 'USPDX', 'Portland', 'OR', 'US', 'America/Los_Angeles', 'current'],
  ['SSA Terminal 18', 'T18', 'X117', null, 'X117', 'SSA18', 'Seattle', 'USSEA', 'Seattle', 'WA', 'US', 'America/Los_Angeles', 'current'],
  ['SSA Terminal 30', 'T30', 'Y197', null, 'Y197', 'SSA30', 'Seattle', 'USSEA', 'Seattle', 'WA', 'US', 'America/Los_Angeles', 'current'],
  ['Terminal 5', 'T5', 'Y400', null, 'Y400', null, 'Seattle', 'USSEA', 'Seattle', 'WA', 'US', 'America/Los_Angeles', 'current'],
  ['Husky Terminal', 'Husky', 'Z693', null, 'Z693', 'HUSKY', 'Tacoma', 'USTIW', 'Tacoma', 'WA', 'US', 'America/Los_Angeles', 'current'],
  ['Pierce County Terminal', 'PCT Tacoma', 'X215', null, 'X215', 'PCT', 'Tacoma', 'USTIW', 'Tacoma', 'WA', 'US', 'America/Los_Angeles', 'current'],
  ['Washington United Terminals', 'WUT', 'Z705', null, 'Z705', 'WUT', 'Tacoma', 'USTIW', 'Tacoma', 'WA', 'US', 'America/Los_Angeles', 'current'],
  ['West Sitcum Terminal (Matson)', 'West Sitcum', 'X335', null, 'X335', 'WSIT', 'Tacoma', 'USTIW', 'Tacoma', 'WA', 'US', 'America/Los_Angeles', 'current'],
  ['Tacoma Container Terminal', 'TCT', 'WAM2', null, 'WAM2', null, 'Tacoma', 'USTIW', 'Tacoma', 'WA', 'US', 'America/Los_Angeles', 'previous'],
  ['Matson Terminal Honolulu (Sand Island)', 'Matson Honolulu', null, null, null, 'MATS', 'Honolulu', 'USHNL', 'Honolulu', 'HI', 'US', 'Pacific/Honolulu', 'none'],
  ['South End Container Terminal', 'Halterm', null, null, '2036', 'HAFXT', 'Halifax', 'CAHAL', 'Halifax', 'NS', 'CA', 'America/Halifax', 'current'],
  ['Fairview Cove Container Terminal', 'Fairview Cove', null, null, null, 'FCOVE', 'Halifax', 'CAHAL', 'Halifax', 'NS', 'CA', 'America/Halifax', 'none'],
  ['Cast Terminal (Section 77)', 'MGT Cast', null, null, '2425', 'MGTCAS', 'Montreal', 'CAMTR', 'Montreal', 'QC', 'CA', 'America/Toronto', 'current'],
  ['Racine Terminal', 'MGT Racine', null, null, '2591', 'MGTRAC', 'Montreal', 'CAMTR', 'Montreal', 'QC', 'CA', 'America/Toronto', 'current'],
  ['Maisonneuve Terminal (Section 68)', 'Maisonneuve', null, null, '2619', 'TMTMAI', 'Montreal', 'CAMTR', 'Montreal', 'QC', 'CA', 'America/Toronto', 'current'],
  ['Viau Terminal (Section 52)', 'Viau', null, null, '5540', 'VIAU', 'Montreal', 'CAMTR', 'Montreal', 'QC', 'CA', 'America/Toronto', 'current'],
  ['Fairview Container Terminal', 'Prince Rupert', null, null, '5086', 'FCTPRR', 'Prince Rupert', 'CAPRR', 'Prince Rupert', 'BC', 'CA', 'America/Vancouver', 'current'],
  ['DP World Centerm', 'Centerm', null, null, '3380', 'CTM', 'Vancouver', 'CAVAN', 'Vancouver', 'BC', 'CA', 'America/Vancouver', 'current'],
  ['GCT Deltaport', 'Deltaport', null, null, '3891', 'DLT', 'Vancouver', 'CAVAN', 'Delta', 'BC', 'CA', 'America/Vancouver', 'current'],
  ['GCT Vanterm', 'Vanterm', null, null, '3395', 'VTM', 'Vancouver', 'CAVAN', 'Vancouver', 'BC', 'CA', 'America/Vancouver', 'current'],
  ['Fraser Surrey Docks', 'FSD', null, null, null, 'FSD', 'Vancouver', 'CAVAN', 'Surrey', 'BC', 'CA', 'America/Vancouver', 'previous'],
  ['Altamira Terminal Portuaria', 'ATP', null, null, '20', 'ATP', 'Altamira', 'MXATM', 'Altamira', 'TAM', 'MX', 'America/Monterrey', 'current'],
  ['Infraestructura Portuaria Mexicana', 'IPM', null, null, null, 'IPM', 'Altamira', 'MXATM', 'Altamira', 'TAM', 'MX', 'America/Monterrey', 'none'],
  ['Ensenada International Terminal', 'EIT', null, null, '27', 'EIT', 'Ensenada', 'MXESE', 'Ensenada', 'BCN', 'MX', 'America/Tijuana', 'current'],
  ['APM Terminals Lazaro Cardenas', 'APMT LZC', null, null, '257', 'APMT', 'Lazaro Cardenas', 'MXLZC', 'Lazaro Cardenas', 'MIC', 'MX', 'America/Mexico_City', 'current'],
  ['Lazaro Cardenas Terminal Portuaria de Contenedores', 'LCT', null, null, '200', 'LCT', 'Lazaro Cardenas', 'MXLZC', 'Lazaro Cardenas', 'MIC', 'MX', 'America/Mexico_City', 'current'],
  ['Contecon Manzanillo', 'CMSA', null, null, '241', 'CMSA', 'Manzanillo', 'MXZLO', 'Manzanillo', 'COL', 'MX', 'America/Mexico_City', 'current'],
  ['SSA Mexico', 'SSA Manzanillo', null, null, '39', 'SSAMX', 'Manzanillo', 'MXZLO', 'Manzanillo', 'COL', 'MX', 'America/Mexico_City', 'current'],
  ['Terminal Internacional de Manzanillo', 'TIMSA', null, null, '40', 'TIMSA', 'Manzanillo', 'MXZLO', 'Manzanillo', 'COL', 'MX', 'America/Mexico_City', 'current'],
  ['Terminal de Contenedores de Yucatan', 'TCY', null, null, '184', 'TCY', 'Progreso', 'MXPGO', 'Progreso', 'YUC', 'MX', 'America/Merida', 'current'],
  ['Hutchison Ports ICAVE', 'ICAVE', null, null, '69', 'ICAVE', 'Veracruz', 'MXVER', 'Veracruz', 'VER', 'MX', 'America/Mexico_City', 'current'],
];

export const TERMINALS: readonly Terminal[] = Object.freeze(
  ROWS.map(
    ([
      name,
      nickname,
      firmsCode,
      firmsCodeAlt,
      refApiFacilityCode,
      smdgCode,
      portName,
      portLocode,
      city,
      state,
      country,
      timezone,
      refApiCoverage,
    ]) =>
      freezeRecord({
        id: referenceId('terminal', terminalNaturalKey({ firmsCode, smdgCode, refApiFacilityCode, portLocode })),
        name,
        nickname,
        firmsCode,
        firmsCodeAlt,
        refApiFacilityCode,
        smdgCode,
        portName,
        portLocode,
        city,
        state,
        country,
        timezone,
        refApiCoverage,
      }),
  ),
);

const BY_FIRMS = uniqueIndex(TERMINALS, (t) => [t.firmsCode, t.firmsCodeAlt], 'FIRMS code');
const BY_PORT_AND_SMDG = uniqueIndex(TERMINALS, (t) => [t.smdgCode && `${t.portLocode}:${t.smdgCode}`], 'port and SMDG code');
const BY_SMDG = groupIndex(TERMINALS, (t) => t.smdgCode);
const BY_PORT = groupIndex(TERMINALS, (t) => t.portLocode);
const NONE: readonly Terminal[] = Object.freeze([]);

/** The terminal with this `terminal` wire id. */
export const terminalById: (id: string) => Terminal | undefined = byId(TERMINALS);

/** The terminal with this FIRMS code, current or older (case-insensitive). */
export function terminalByFirmsCode(firmsCode: string): Terminal | undefined {
  return BY_FIRMS.get(normalizeCode(firmsCode));
}

/** The terminal with this SMDG code at this port (SMDG codes are unique only within a port). */
export function terminalBySmdgCode(smdgCode: string, portLocode: string): Terminal | undefined {
  return BY_PORT_AND_SMDG.get(`${normalizeCode(portLocode)}:${normalizeCode(smdgCode)}`);
}

/** Every terminal with this SMDG code, at any port (`APMT` matches four). */
export function terminalsBySmdgCode(smdgCode: string): readonly Terminal[] {
  return BY_SMDG.get(normalizeCode(smdgCode)) ?? NONE;
}

/** The terminals of the port with this UN/LOCODE, in table order. */
export function terminalsByPortLocode(portLocode: string): readonly Terminal[] {
  return BY_PORT.get(normalizeCode(portLocode)) ?? NONE;
}

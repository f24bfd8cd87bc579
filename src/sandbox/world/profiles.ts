// Data gaps of the simulated carriers and terminals, one table each, and the `provided_data` the API shows
// for them — both derived from the same profile, so what a source claims to give is what its answers hold.
import {
  CARRIERS,
  type Terminal,
  terminalByFirmsCode,
  terminalBySmdgCode,
  terminalNaturalKey,
  terminalsBySmdgCode,
} from '../../sources/reference/index.js';
import { unit } from './random.js';

/** Gap flags of a carrier profile; a carrier without flags gives everything but the line LFD. */
export type CarrierGap =
  | 'lfd' // gives its own last free day (not a gap: a bonus)
  | 'noseal'
  | 'noweight'
  | 'avgweight' // the shipment's average weight as each container's
  | 'noequip' // no ISO size-type at all
  | 'partequip' // only dry 20/40/45 boxes mapped
  | 'novessel' // equipment events only: no vessel departure/arrival
  | 'dateonly' // dates without times (local midnight)
  | 'nopodout' // no gate-out at the POD
  | 'noempty' // no empty return
  | 'noinlandout'; // no gate-out at the inland destination

// biome-ignore format: one carrier per line
export const CARRIER_GAPS: Readonly<Record<string, readonly CarrierGap[]>> = {
  ACLU: ['avgweight'],
  ANNU: [],
  APLU: ['lfd'],
  ARKU: ['noseal', 'noinlandout'],
  CMDU: ['lfd'],
  COSU: ['partequip'],
  CLAM: ['noseal', 'noweight'],
  CULU: ['dateonly', 'noempty'],
  EGLV: [],
  GOSU: ['noseal', 'noweight'],
  HLCU: ['lfd'],
  HDUJ: ['noequip', 'novessel', 'nopodout'],
  HDMU: [],
  IILU: ['dateonly', 'noseal'],
  KMTU: ['partequip'],
  MAEU: ['lfd'],
  MATS: ['novessel'],
  MSCU: ['noinlandout'],
  ONEY: ['lfd'],
  OOLU: [],
  PCIU: ['partequip', 'noinlandout'],
  SAFM: ['lfd'],
  SMLU: ['dateonly', 'novessel'],
  SEAU: ['lfd'],
  SEJJ: ['lfd'],
  SQQY: ['noseal', 'noweight', 'noequip'],
  SSPH: ['dateonly', 'noseal', 'noweight'],
  SMLM: ['partequip'],
  SSBF: ['novessel', 'noinlandout'],
  CHVW: ['dateonly'],
  TRBR: ['novessel', 'noseal', 'dateonly'],
  TJFH: ['noequip', 'noinlandout'],
  TXZJ: ['noweight'],
  TRKU: ['noseal'],
  WHLC: [],
  WDSB: ['novessel', 'noequip'],
  YMLU: [],
  ZIMU: ['dateonly'],
  TEST: ['lfd'],
};

// biome-ignore format: one carrier per line
const CARRIER_SITES: Readonly<Record<string, string>> = {
  ACLU: 'aclcargo.com', ANNU: 'anl.com.au', APLU: 'apl.com', ARKU: 'arkasline.com.tr', CMDU: 'cma-cgm.com',
  COSU: 'lines.coscoshipping.com', CLAM: 'crowley.com', CULU: 'culines.com', EGLV: 'evergreen-line.com',
  GOSU: 'goldstarline.com', HLCU: 'hapag-lloyd.com', HDUJ: 'hedeshipping.com', HDMU: 'hmm21.com', IILU: 'shipicl.com',
  KMTU: 'ekmtc.com', MAEU: 'maersk.com', MATS: 'matson.com', MSCU: 'msc.com', ONEY: 'one-line.com', OOLU: 'oocl.com',
  PCIU: 'pilship.com', SAFM: 'safmarine.com', SMLU: 'seaboardmarine.com', SEAU: 'sealandmaersk.com',
  SEJJ: 'sealand-europe.com', SQQY: 'sea-lead.com', SSPH: 'sethshipping.com', SMLM: 'smlines.com',
  SSBF: 'westwoodshipping.com', CHVW: 'swireshipping.com', TRBR: 'trailerbridge.com', TJFH: 'transfarshipping.com',
  TXZJ: 'tslines.com', TRKU: 'turkon.com', WHLC: 'wanhai.com', WDSB: 'worlddirectshipping.com', YMLU: 'yangming.com',
  ZIMU: 'zim.com', TEST: 'example.com',
};

export const SANDBOX_SCACS: readonly string[] = Object.freeze([...CARRIERS.map((c) => c.scac), 'TEST']);
const SANDBOX_SCAC_SET = new Set(SANDBOX_SCACS);

/** The 38 carriers of the coverage list plus `TEST`. */
export function isSandboxScac(scac: string): boolean {
  return SANDBOX_SCAC_SET.has(scac.trim().toUpperCase());
}

/** The shipping line's `provided_data`: a boolean per field, and `<field>_notes` where it is partial. */
export interface CarrierProvidedData {
  ssl_lfd: boolean;
  seal_number: boolean;
  weight_in_lbs: boolean;
  equipment_type: boolean;
  equipment_length: boolean;
  equipment_height: boolean;
  pod_arrived_at: boolean;
  pod_discharged_at: boolean;
  pod_full_out_at: boolean;
  empty_terminated_at: boolean;
  final_destination_full_out_at: boolean;
  [notes: `${string}_notes`]: string;
}

export interface CarrierProfile {
  scac: string;
  gaps: readonly CarrierGap[];
  sealNumber: boolean;
  weight: 'actual' | 'none' | 'shipment_average';
  equipmentType: 'all' | 'partial' | 'none';
  vesselEvents: boolean;
  dateOnly: boolean;
  sslLfd: boolean;
  podFullOut: boolean;
  emptyReturn: boolean;
  inlandFullOut: boolean;
  providedData: CarrierProvidedData;
  /** Public tracking page, `${BLNUM}` standing for the bill of lading number. */
  trackingUrl: string;
  contactUrl: string;
}

/** ISO size-types a `partequip` carrier maps; every other type comes without one. */
export const PARTIAL_EQUIPMENT_TYPES: readonly string[] = ['22G1', '42G1', '45G1', 'L5G1'];

const CARRIER_PROFILES = new Map<string, CarrierProfile>();

export function carrierProfile(scac: string): CarrierProfile {
  const code = scac.trim().toUpperCase();
  let p = CARRIER_PROFILES.get(code);
  if (p) return p;
  const gaps = CARRIER_GAPS[code] ?? [];
  const has = (g: CarrierGap) => gaps.includes(g);
  const dateOnly = has('dateonly');
  const dateNote = 'Dates only, without a time of day (stored as local midnight)';
  const providedData: CarrierProvidedData = {
    ssl_lfd: has('lfd'),
    seal_number: !has('noseal'),
    weight_in_lbs: !has('noweight'),
    equipment_type: !has('noequip'),
    equipment_length: !has('noequip'),
    equipment_height: !has('noequip'),
    pod_arrived_at: !has('novessel'),
    pod_discharged_at: true,
    pod_full_out_at: !has('nopodout'),
    empty_terminated_at: !has('noempty'),
    final_destination_full_out_at: !has('noinlandout'),
  };
  if (has('avgweight')) providedData.weight_in_lbs_notes = "The shipment's average weight is given as each container's weight";
  if (has('partequip')) {
    const note = `Only ${PARTIAL_EQUIPMENT_TYPES.join(', ')} are mapped; reefer, open top, tank and other special equipment come without a type`;
    providedData.equipment_type_notes = note;
    providedData.equipment_length_notes = note;
    providedData.equipment_height_notes = note;
  }
  if (has('novessel')) providedData.pod_arrived_at_notes = 'Vessel arrivals are not reported; container events only';
  if (dateOnly) {
    for (const field of [
      'pod_arrived_at',
      'pod_discharged_at',
      'pod_full_out_at',
      'empty_terminated_at',
      'final_destination_full_out_at',
    ] as const) {
      if (providedData[field]) providedData[`${field}_notes`] = dateNote;
    }
  }
  const site = CARRIER_SITES[code] ?? `${code.toLowerCase()}.example.com`;
  p = Object.freeze({
    scac: code,
    gaps,
    sealNumber: !has('noseal'),
    weight: has('noweight') ? 'none' : has('avgweight') ? 'shipment_average' : 'actual',
    equipmentType: has('noequip') ? 'none' : has('partequip') ? 'partial' : 'all',
    vesselEvents: !has('novessel'),
    dateOnly,
    sslLfd: has('lfd'),
    podFullOut: !has('nopodout'),
    emptyReturn: !has('noempty'),
    inlandFullOut: !has('noinlandout'),
    providedData: Object.freeze(providedData),
    trackingUrl: `https://www.${site}/tracking?number=\${BLNUM}`,
    contactUrl: `https://www.${site}/contact`,
  } satisfies CarrierProfile);
  CARRIER_PROFILES.set(code, p);
  return p;
}

// ------------------------------------------------------------------------------------------- terminals

export interface TerminalProvidedData {
  pickup_lfd: boolean;
  pod_full_out_at: boolean;
  available_for_pickup: boolean;
  fees_at_pod_terminal: boolean;
  holds_at_pod_terminal: boolean;
  pickup_appointment_at: boolean;
  location_at_pod_terminal: boolean;
  pod_full_out_chassis_number: boolean;
  [notes: `${string}_notes`]: string;
}

export interface TerminalProfile {
  /** The terminal's natural key (FIRMS code, else `LOCODE:SMDG`), or the code asked about when unknown. */
  key: string;
  terminal: Terminal | null;
  lfd: boolean;
  fullOut: boolean;
  available: boolean;
  fees: boolean;
  /** Gives a separate `total` fee line (never to be summed with the others). */
  feeTotalLine: boolean;
  /** Charges extended dwell time (the San Pedro Bay ports). */
  dwellFee: boolean;
  holds: boolean;
  appointment: boolean;
  location: boolean;
  chassis: boolean;
  providedData: TerminalProvidedData;
}

/** The terminal behind a FIRMS code, a `LOCODE:SMDG` key or an SMDG code that is unique across ports. */
export function resolveTerminal(code: string): Terminal | undefined {
  const c = code.trim().toUpperCase();
  const byFirms = terminalByFirmsCode(c);
  if (byFirms) return byFirms;
  const colon = c.indexOf(':');
  if (colon > 0) return terminalBySmdgCode(c.slice(colon + 1), c.slice(0, colon));
  const bySmdg = terminalsBySmdgCode(c);
  return bySmdg.length === 1 ? bySmdg[0] : undefined;
}

/** The code the terminal's own records (yard facts) use: FIRMS, else SMDG. */
export function terminalFacilityCode(t: Terminal): { code: string; list: 'firms' | 'smdg' } {
  if (t.firmsCode) return { code: t.firmsCode, list: 'firms' };
  if (t.smdgCode) return { code: t.smdgCode, list: 'smdg' };
  throw new Error(`sandbox: terminal ${t.name} has neither FIRMS nor SMDG code`);
}

const TERMINAL_PROFILES = new Map<string, TerminalProfile>();

/** What a terminal gives, fixed per terminal (not per seed), so its `provided_data` never changes. */
export function terminalProfile(firmsOrKey: string): TerminalProfile {
  const t = resolveTerminal(firmsOrKey) ?? null;
  const key = t ? terminalNaturalKey(t) : firmsOrKey.trim().toUpperCase();
  let p = TERMINAL_PROFILES.get(key);
  if (p) return p;
  const u = (what: string) => unit('terminal-profile', key, what);
  const fees = u('fees') < 0.7;
  const feeTotalLine = fees && u('total') < 0.45;
  const dwellFee = fees && t !== null && (t.portLocode === 'USLAX' || t.portLocode === 'USLGB');
  const profile = {
    key,
    terminal: t,
    lfd: u('lfd') < 0.88,
    fullOut: u('fullOut') < 0.92,
    available: u('available') < 0.95,
    fees,
    feeTotalLine,
    dwellFee,
    holds: u('holds') < 0.85,
    appointment: u('appointment') < 0.6,
    location: u('location') < 0.65,
    chassis: u('chassis') < 0.5,
  };
  const providedData: TerminalProvidedData = {
    pickup_lfd: profile.lfd,
    pod_full_out_at: profile.fullOut,
    available_for_pickup: profile.available,
    fees_at_pod_terminal: profile.fees,
    holds_at_pod_terminal: profile.holds,
    pickup_appointment_at: profile.appointment,
    location_at_pod_terminal: profile.location,
    pod_full_out_chassis_number: profile.chassis,
  };
  if (feeTotalLine)
    providedData.fees_at_pod_terminal_notes = 'A separate total line accompanies the itemised fees; it is not to be added to them';
  p = Object.freeze({ ...profile, providedData: Object.freeze(providedData) });
  TERMINAL_PROFILES.set(key, p);
  return p;
}

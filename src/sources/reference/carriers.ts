// Ocean carriers (shipping lines) a Terminal49-compatible service covers: the 38 lines of the reference API's
// coverage list as of 2026-08-14 (36 enabled by default, 2 enabled per account). Compiled facts; the tests compare
// this table with ../shared/reference/data/carriers.csv. The reference-API flags describe that API, not Tidemark.
import { referenceId } from '../../lib/ids.js';
import { byId, freezeRecord, normalizeCode, uniqueIndex } from './table.js';

/** Whether the carrier is publicly reported to publish DCSA Track & Trace APIs (`unknown` = not verified). */
export type DcsaTntSupport = 'yes' | 'no' | 'unknown';

export interface Carrier {
  /** Wire id of the `shipping_line`: `referenceId('shipping_line', scac)`. */
  readonly id: string;
  readonly scac: string;
  /** Other SCACs the carrier is known by; `carrierByScac` finds the carrier by these too. */
  readonly alternativeScacs: readonly string[];
  readonly name: string;
  readonly shortName: string;
  /** Prefixes seen on the carrier's bills of lading. Best effort: empty = not known; many BLs carry none. */
  readonly bolPrefixes: readonly string[];
  /** BIC owner codes of the carrier's containers. Best effort; an owner code does not say who moves the box. */
  readonly containerPrefixes: readonly string[];
  /** Reference-API support for tracking by bill of lading, booking and container number. */
  readonly trackByBillOfLading: boolean;
  readonly trackByBooking: boolean;
  readonly trackByContainer: boolean;
  /** Enabled for every account by default in the reference API; the others must be enabled per account. */
  readonly defaultEnabled: boolean;
  readonly dcsaTnt: DcsaTntSupport;
}

type Row = readonly [
  scac: string,
  alternativeScacs: readonly string[],
  name: string,
  shortName: string,
  bolPrefixes: readonly string[],
  containerPrefixes: readonly string[],
  trackByBillOfLading: boolean,
  trackByBooking: boolean,
  trackByContainer: boolean,
  defaultEnabled: boolean,
  dcsaTnt: DcsaTntSupport,
];

// scac, alternative SCACs, name, short name, BOL prefixes, container prefixes,
// track by BL / booking / container, enabled by default, DCSA T&T
// biome-ignore format: one row per carrier
const ROWS: readonly Row[] = [
  ['ACLU', [], 'Atlantic Container Line', 'ACL', [], ['ACLU'], true, true, true, true, 'unknown'],
  ['ANNU', [], 'ANL Container Line (Australia National Line)', 'ANL', ['ANLC'], ['ANNU'], true, true, true, true, 'unknown'],
  ['APLU', [], 'American President Lines', 'APL', ['APLU'], ['APLU', 'APZU', 'APHU'], true, true, true, true, 'unknown'],
  ['ARKU', [], 'Arkas Container Transport', 'Arkas', [], ['ARKU'], true, true, true, true, 'unknown'],
  ['CMDU', [], 'CMA CGM', 'CMA CGM', ['CMDU'], ['CMAU', 'CGMU', 'ECMU'], true, true, true, true, 'yes'],
  ['COSU', [], 'COSCO Shipping Lines', 'COSCO', ['COSU', 'CCMJ'], ['CBHU', 'CCLU', 'CSNU', 'CSLU'], true, true, false, true, 'no'],
  ['CLAM', ['CWLQ'], 'Crowley', 'Crowley', [], ['CMCU'], true, true, false, true, 'unknown'],
  ['CULU', [], 'China United Lines', 'CU Lines', [], ['CULU'], true, true, true, true, 'unknown'],
  ['EGLV', [], 'Evergreen Marine', 'Evergreen', ['EGLV'], ['EGHU', 'EISU', 'EMCU', 'EITU', 'EGSU'], false, false, true, true, 'yes'],
  ['GOSU', [], 'Gold Star Line', 'Gold Star Line', ['GOSU'], [], true, true, false, true, 'unknown'],
  ['HLCU', [], 'Hapag-Lloyd', 'Hapag-Lloyd', ['HLCU'], ['HLXU', 'HLBU', 'HLCU', 'HAMU', 'UACU'], true, true, true, true, 'yes'],
  ['HDUJ', [], 'HEDE Shipping', 'HEDE', [], [], true, true, true, true, 'unknown'],
  ['HDMU', [], 'HMM (Hyundai Merchant Marine)', 'HMM', ['HDMU'], ['HDMU', 'HMMU'], true, true, true, true, 'unknown'],
  ['IILU', [], 'Independent Container Line', 'ICL', [], ['IILU'], true, true, false, true, 'unknown'],
  ['KMTU', [], 'Korea Marine Transport Co.', 'KMTC', ['KMTC'], ['KMTU'], true, true, true, true, 'unknown'],
  ['MAEU', [], 'Maersk', 'Maersk', ['MAEU'], ['MAEU', 'MSKU', 'MRKU', 'MRSU', 'MNBU', 'SUDU'], true, true, true, true, 'yes'],
  ['MATS', [], 'Matson Navigation Company', 'Matson', ['MATS'], ['MATU'], true, true, false, true, 'unknown'],
  ['MSCU', ['MEDU'], 'Mediterranean Shipping Company', 'MSC', ['MEDU', 'MSCU'], ['MSCU', 'MEDU', 'MSDU', 'MSMU', 'MSNU'], true, true, true, true, 'yes'],
  ['ONEY', [], 'Ocean Network Express', 'ONE', ['ONEY'], ['ONEU', 'NYKU', 'MOLU', 'KKFU'], true, true, true, true, 'yes'],
  ['OOLU', [], 'Orient Overseas Container Line', 'OOCL', ['OOLU'], ['OOLU', 'OOCU'], true, true, true, true, 'no'],
  ['PCIU', [], 'Pacific International Lines', 'PIL', ['PCIU', 'PABV'], ['PCIU'], false, false, true, true, 'unknown'],
  ['SAFM', [], 'Safmarine', 'Safmarine', ['SAFM'], [], true, true, false, true, 'unknown'],
  ['SMLU', [], 'Seaboard Marine', 'Seaboard Marine', [], ['SMLU'], true, true, false, false, 'unknown'],
  ['SEAU', ['SEAL'], 'Sealand Americas', 'Sealand Americas', ['SEAU'], ['SEAU'], true, true, true, true, 'unknown'],
  ['SEJJ', [], 'Sealand Europe', 'Sealand Europe', ['SEJJ'], [], true, true, true, true, 'unknown'],
  ['SQQY', ['SJHH'], 'SeaLead Shipping', 'SeaLead', [], [], true, true, true, true, 'unknown'],
  ['SSPH', [], 'Seth Shipping', 'Seth Shipping', [], [], true, true, false, true, 'unknown'],
  ['SMLM', [], 'SM Line', 'SM Line', ['SMLM'], ['SMCU'], true, true, false, true, 'unknown'],
  ['SSBF', ['WWSU'], 'Swire (includes Westwood)', 'Swire (Westwood)', [], [], true, true, false, true, 'unknown'],
  ['CHVW', ['QWJA', 'PLLU'], 'Swire Shipping', 'Swire Shipping', [], [], true, true, false, true, 'unknown'],
  ['TRBR', ['TBIE', 'PYRR'], 'Trailer Bridge', 'Trailer Bridge', [], [], false, true, false, false, 'unknown'],
  ['TJFH', [], 'Transfar Shipping', 'Transfar', [], [], true, true, false, true, 'unknown'],
  ['TXZJ', [], 'T.S. Lines', 'TS Lines', [], ['TSLU'], false, false, true, true, 'unknown'],
  ['TRKU', [], 'Turkon Line', 'Turkon', [], ['TRKU'], true, true, true, true, 'unknown'],
  ['WHLC', [], 'Wan Hai Lines', 'Wan Hai', ['WHLC'], ['WHLU', 'WHSU'], true, true, true, true, 'unknown'],
  ['WDSB', [], 'World Direct Shipping', 'World Direct Shipping', [], [], false, false, true, true, 'unknown'],
  ['YMLU', ['YMPR', 'YMSG', 'YMJA'], 'Yang Ming Marine Transport', 'Yang Ming', ['YMLU'], ['YMLU', 'YMMU'], true, true, true, true, 'yes'],
  ['ZIMU', [], 'ZIM Integrated Shipping Services', 'ZIM', ['ZIMU'], ['ZIMU', 'ZCSU'], true, true, false, true, 'unknown'],
];

export const CARRIERS: readonly Carrier[] = Object.freeze(
  ROWS.map(
    ([scac, alternativeScacs, name, shortName, bolPrefixes, containerPrefixes, byBl, byBooking, byContainer, defaultEnabled, dcsaTnt]) =>
      freezeRecord({
        id: referenceId('shipping_line', scac),
        scac,
        alternativeScacs: [...alternativeScacs],
        name,
        shortName,
        bolPrefixes: [...bolPrefixes],
        containerPrefixes: [...containerPrefixes],
        trackByBillOfLading: byBl,
        trackByBooking: byBooking,
        trackByContainer: byContainer,
        defaultEnabled,
        dcsaTnt,
      }),
  ),
);

/** SCACs of the carriers every account gets (36). */
export const DEFAULT_CARRIER_SCACS: readonly string[] = Object.freeze(CARRIERS.filter((c) => c.defaultEnabled).map((c) => c.scac));

/** SCACs of the carriers that must be enabled per account (SMLU Seaboard Marine, TRBR Trailer Bridge). */
export const EXTRA_CARRIER_SCACS: readonly string[] = Object.freeze(CARRIERS.filter((c) => !c.defaultEnabled).map((c) => c.scac));

const BY_SCAC = uniqueIndex(CARRIERS, (c) => [c.scac, ...c.alternativeScacs], 'SCAC');
const BY_BOL_PREFIX = uniqueIndex(CARRIERS, (c) => c.bolPrefixes, 'bill of lading prefix');
const BY_CONTAINER_PREFIX = uniqueIndex(CARRIERS, (c) => c.containerPrefixes, 'container prefix');

/** The carrier with this SCAC or alternative SCAC (case-insensitive). */
export function carrierByScac(scac: string): Carrier | undefined {
  return BY_SCAC.get(normalizeCode(scac));
}

/** The carrier with this `shipping_line` wire id. */
export const carrierById: (id: string) => Carrier | undefined = byId(CARRIERS);

/** The carrier whose bills of lading carry this prefix (best effort; a hint, not a guarantee). */
export function carrierByBolPrefix(prefix: string): Carrier | undefined {
  return BY_BOL_PREFIX.get(normalizeCode(prefix));
}

/** The carrier that owns containers with this BIC owner code (best effort; the owner may not be the one moving it). */
export function carrierByContainerPrefix(prefix: string): Carrier | undefined {
  return BY_CONTAINER_PREFIX.get(normalizeCode(prefix));
}

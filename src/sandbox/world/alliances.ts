// Who sails with whom: the operators of the sandbox's mainline services (an alliance or a line) and, for every
// sandbox carrier, the operators whose vessels carry its boxes. A carrier's stories use only those services.
//
// Membership rows follow public announcements as of 2026 (the source of each row is given; `checked` says whether
// the claim was confirmed offline against a stored copy of a public page while this table was written). Which
// operator runs which sandbox service is the sandbox's own choice: its services are invented loops on real ports.
// Slot-charter rows for the smaller lines are sandbox assumptions unless a source is given.
// network.ts names its vessels from this table, so this module imports nothing from the network.

export const ALLIANCES_AS_OF = '2026-11-01';

export type OperatorId = 'GEMINI' | 'PREMIER' | 'OCEAN' | 'MSC' | 'ZIM' | 'ACL' | 'CROWLEY' | 'SEABOARD';

export interface Source {
  /** What the source is (publisher and subject); a URL only where one was seen. */
  readonly what: string;
  readonly url: string | null;
  /** Confirmed offline against a stored copy of a public page while the table was written. */
  readonly checked: boolean;
}

export interface Operator {
  readonly id: OperatorId;
  readonly name: string;
  readonly kind: 'alliance' | 'line';
  /** The vessel-operating lines (SCACs) whose ships sail the operator's services. */
  readonly lines: readonly string[];
  readonly source: Source;
}

const S = (what: string, url: string | null, checked: boolean): Source => ({ what, url, checked });

// biome-ignore format: one operator per row
export const OPERATORS: readonly Operator[] = [
  { id: 'GEMINI', name: 'Gemini Cooperation', kind: 'alliance', lines: ['MAEU', 'HLCU'],
    source: S('Maersk and Hapag-Lloyd: Gemini Cooperation, operating from February 2025 (Hapag-Lloyd left THE Alliance; 2M ended January 2025)', 'https://shipsmonthly.com/news/gemini-cooperation-is-born', true) },
  { id: 'PREMIER', name: 'Premier Alliance', kind: 'alliance', lines: ['ONEY', 'HDMU', 'YMLU'],
    source: S('ONE, HMM and Yang Ming: Premier Alliance, effective February 2025 per the US FMC', 'https://maritime-executive.com/article/new-premier-alliance-agreement-for-hmm-one-and-yang-ming-takes-effect', true) },
  { id: 'OCEAN', name: 'Ocean Alliance', kind: 'alliance', lines: ['CMDU', 'APLU', 'COSU', 'OOLU', 'EGLV'],
    source: S('CMA CGM group, COSCO Shipping, OOCL and Evergreen: Ocean Alliance extended to March 2032 (CMA CGM release, February 2024)', 'https://www.hellenicshippingnews.com/cma-cgm-cosco-shipping-evergreen-and-oocl-to-extend-ocean-alliance-until-2032/', true) },
  { id: 'MSC', name: 'MSC', kind: 'line', lines: ['MSCU'],
    source: S('MSC operates alone on the US trades since 2M ended in January 2025 (its slot exchange with the Premier Alliance covers Asia–North Europe only)', 'https://mehrcontainerfuerdeutschland.de/rund-um-den-container/aus-the-alliance-wird-premier-alliance/page/2', true) },
  { id: 'ZIM', name: 'ZIM', kind: 'line', lines: ['ZIMU'],
    source: S('ZIM runs its own services outside the alliances (its 2M cooperation on Asia–US East Coast lapsed with 2M); Gold Star Line is its subsidiary brand', null, false) },
  { id: 'ACL', name: 'Atlantic Container Line', kind: 'line', lines: ['ACLU'],
    source: S('ACL operates its own con-ro ships (ATLANTIC …) between North Europe, Halifax and the US East Coast', null, false) },
  { id: 'CROWLEY', name: 'Crowley', kind: 'line', lines: ['CLAM'],
    source: S('Crowley operates its own ships between Central America and Florida', null, false) },
  { id: 'SEABOARD', name: 'Seaboard Marine', kind: 'line', lines: ['SMLU'],
    source: S('Seaboard Marine operates its own ships between the Caribbean, Central and South America and the US', null, false) },
];

export interface CarrierRow {
  readonly scac: string;
  /** Operators whose vessels carry the carrier's boxes: as a member (or brand of a member), or by slot charter. */
  readonly on: readonly OperatorId[];
  readonly how: 'member' | 'brand' | 'slot_charter' | 'sandbox';
  readonly source: Source;
}

const ASSUMED = S('Sandbox assumption: a slot charterer on these partners’ services (not a claim about its real network)', null, false);

// biome-ignore format: one carrier per row
export const CARRIER_ROWS: readonly CarrierRow[] = [
  { scac: 'MAEU', on: ['GEMINI'], how: 'member', source: OPERATORS[0]!.source },
  { scac: 'HLCU', on: ['GEMINI'], how: 'member', source: OPERATORS[0]!.source },
  { scac: 'SEAU', on: ['GEMINI'], how: 'brand', source: S('Sealand, A Maersk Company: Maersk’s regional brand, on Maersk (Gemini) tonnage', null, false) },
  { scac: 'SEJJ', on: ['GEMINI'], how: 'brand', source: S('Sealand Europe: Maersk’s regional brand, on Maersk (Gemini) tonnage', null, false) },
  { scac: 'SAFM', on: ['GEMINI'], how: 'brand', source: S('Safmarine: Maersk brand (integrated into Maersk), on Maersk (Gemini) tonnage', null, false) },
  { scac: 'ONEY', on: ['PREMIER'], how: 'member', source: OPERATORS[1]!.source },
  { scac: 'HDMU', on: ['PREMIER'], how: 'member', source: OPERATORS[1]!.source },
  { scac: 'YMLU', on: ['PREMIER'], how: 'member', source: OPERATORS[1]!.source },
  { scac: 'CMDU', on: ['OCEAN'], how: 'member', source: OPERATORS[2]!.source },
  { scac: 'APLU', on: ['OCEAN'], how: 'brand', source: S('APL: CMA CGM group brand, in the Ocean Alliance through CMA CGM', null, false) },
  { scac: 'ANNU', on: ['OCEAN'], how: 'brand', source: S('ANL: CMA CGM group brand, in the Ocean Alliance through CMA CGM', null, false) },
  { scac: 'COSU', on: ['OCEAN'], how: 'member', source: OPERATORS[2]!.source },
  { scac: 'OOLU', on: ['OCEAN'], how: 'member', source: OPERATORS[2]!.source },
  { scac: 'EGLV', on: ['OCEAN'], how: 'member', source: OPERATORS[2]!.source },
  { scac: 'MSCU', on: ['MSC'], how: 'member', source: OPERATORS[3]!.source },
  { scac: 'ZIMU', on: ['ZIM'], how: 'member', source: OPERATORS[4]!.source },
  { scac: 'GOSU', on: ['ZIM'], how: 'brand', source: S('Gold Star Line: ZIM subsidiary, on ZIM tonnage', null, false) },
  { scac: 'ACLU', on: ['ACL'], how: 'member', source: OPERATORS[5]!.source },
  { scac: 'CLAM', on: ['CROWLEY'], how: 'member', source: OPERATORS[6]!.source },
  { scac: 'SMLU', on: ['SEABOARD'], how: 'member', source: OPERATORS[7]!.source },
  // Smaller lines: slot charterers on named partners' services (sandbox assumptions).
  { scac: 'ARKU', on: ['ZIM'], how: 'slot_charter', source: ASSUMED },
  { scac: 'TRKU', on: ['ZIM'], how: 'slot_charter', source: ASSUMED },
  { scac: 'IILU', on: ['ACL'], how: 'slot_charter', source: ASSUMED },
  { scac: 'CULU', on: ['OCEAN'], how: 'slot_charter', source: ASSUMED },
  { scac: 'HDUJ', on: ['OCEAN'], how: 'slot_charter', source: ASSUMED },
  { scac: 'TJFH', on: ['OCEAN'], how: 'slot_charter', source: ASSUMED },
  { scac: 'PCIU', on: ['OCEAN'], how: 'slot_charter', source: ASSUMED },
  { scac: 'SQQY', on: ['OCEAN'], how: 'slot_charter', source: ASSUMED },
  { scac: 'MATS', on: ['OCEAN'], how: 'slot_charter', source: S('Sandbox assumption: Matson runs its own China–Long Beach ships in reality; the sandbox has no such service, so its boxes ride the Ocean Alliance’s Long Beach loop', null, false) },
  { scac: 'TXZJ', on: ['PREMIER', 'OCEAN'], how: 'slot_charter', source: ASSUMED },
  { scac: 'WHLC', on: ['PREMIER', 'OCEAN'], how: 'slot_charter', source: ASSUMED },
  { scac: 'KMTU', on: ['PREMIER'], how: 'slot_charter', source: ASSUMED },
  { scac: 'SMLM', on: ['PREMIER'], how: 'slot_charter', source: ASSUMED },
  { scac: 'SSBF', on: ['MSC'], how: 'slot_charter', source: ASSUMED },
  { scac: 'CHVW', on: ['MSC'], how: 'slot_charter', source: ASSUMED },
  { scac: 'SSPH', on: ['MSC', 'PREMIER'], how: 'slot_charter', source: ASSUMED },
  { scac: 'TRBR', on: ['CROWLEY'], how: 'slot_charter', source: ASSUMED },
  { scac: 'WDSB', on: ['CROWLEY', 'SEABOARD'], how: 'slot_charter', source: ASSUMED },
  // The sandbox's test carrier is no real line: it may ride any service.
  { scac: 'TEST', on: ['GEMINI', 'PREMIER', 'OCEAN', 'MSC', 'ZIM', 'ACL', 'CROWLEY', 'SEABOARD'], how: 'sandbox', source: S('Sandbox test carrier', null, false) },
];

/** The operator of every mainline service (feeders are common-user: any line's boxes ride them). */
// biome-ignore format: a table
export const SERVICE_OPERATORS: Readonly<Record<string, OperatorId>> = {
  TP1: 'GEMINI', TP3: 'OCEAN', TP4: 'MSC', TP5: 'OCEAN', TP6: 'PREMIER', AP1: 'GEMINI', AP2: 'OCEAN', AS1: 'OCEAN',
  TA1: 'GEMINI', TA2: 'ACL', TA3: 'GEMINI', TA4: 'PREMIER', MD1: 'MSC', MD2: 'ZIM', LA1: 'PREMIER', CA1: 'SEABOARD',
  CA2: 'CROWLEY', CA3: 'ZIM', MX1: 'MSC',
};

/**
 * How each operating line names its ships: a head (`MAERSK …`) or a tail (`… EXPRESS`). Chartered tonnage keeps its
 * owner's name under any operator (SEASPAN, NAVIOS, GSL, CONTI …).
 */
// biome-ignore format: a table
export const LINE_NAMES: Readonly<Record<string, { readonly heads?: readonly string[]; readonly tails?: readonly string[] }>> = {
  MAEU: { heads: ['MAERSK'] }, HLCU: { tails: ['EXPRESS'] },
  ONEY: { heads: ['ONE'] }, HDMU: { heads: ['HMM', 'HYUNDAI'] }, YMLU: { heads: ['YM'] },
  CMDU: { heads: ['CMA CGM'] }, APLU: { heads: ['APL'] }, COSU: { heads: ['COSCO'] }, OOLU: { heads: ['OOCL'] }, EGLV: { heads: ['EVER'] },
  MSCU: { heads: ['MSC'] }, ZIMU: { heads: ['ZIM'] }, ACLU: { heads: ['ATLANTIC'] }, CLAM: { heads: ['CROWLEY'] }, SMLU: { heads: ['SEABOARD'] },
};

/** Heads of chartered tonnage (owners' names), allowed under any operator. */
export const CHARTER_HEADS: readonly string[] = ['SEASPAN', 'NAVIOS', 'GSL', 'CONTI', 'NORTHERN', 'CAPE'];

const OPERATOR_BY_ID = new Map(OPERATORS.map((o) => [o.id, o]));
const ROW_BY_SCAC = new Map(CARRIER_ROWS.map((r) => [r.scac, r]));

export function operatorById(id: OperatorId): Operator {
  return OPERATOR_BY_ID.get(id)!;
}

/** The operator of a mainline service; null for a feeder (common-user; the tests check every mainline has one). */
export function serviceOperator(serviceCode: string): Operator | null {
  const id = SERVICE_OPERATORS[serviceCode];
  return id ? operatorById(id) : null;
}

/** The operators whose vessels may carry this carrier's boxes (empty for a carrier the table does not know). */
export function carrierOperators(scac: string): readonly OperatorId[] {
  return ROW_BY_SCAC.get(scac.trim().toUpperCase())?.on ?? [];
}

/** Whether the carrier's boxes may ride this service: any feeder, or a mainline of an operator it sails with. */
export function carrierMayUse(scac: string, serviceCode: string): boolean {
  const op = serviceOperator(serviceCode);
  return op === null || carrierOperators(scac).includes(op.id);
}

/** Whether a vessel name fits the service: one of the operator's lines' names, chartered tonnage, or a feeder. */
export function vesselNameFits(serviceCode: string, vesselName: string): boolean {
  const op = serviceOperator(serviceCode);
  if (op === null) return true;
  const words = vesselName.split(' ');
  if (CHARTER_HEADS.some((h) => vesselName.startsWith(`${h} `))) return true;
  return op.lines.some((line) => {
    const n = LINE_NAMES[line];
    return (n?.heads ?? []).some((h) => vesselName.startsWith(`${h} `)) || (n?.tails ?? []).includes(words.at(-1)!);
  });
}

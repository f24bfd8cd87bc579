// One container as normalize makes it from every source's word: identity, milestone dates (ocean, rail, pickup
// and return), customs holds, where it is (POD terminal, pickup facility) and what its terminal and railroad say.
import type { Milestone } from '../domain/milestones.js';
import type { FeeFact, HoldFact, When } from '../sources/contract.js';
import { byTime, type Canonical, preference } from './occurrences.js';
import { resolvePlace } from './places.js';
import { containerNumber, railSide, type SourceReading } from './source-reading.js';
import {
  type ContainerSnapshot,
  compareFees,
  compareHolds,
  CUSTOMS_SELECTION_HOLDS,
  deriveContainer,
  emptyContainer,
  type Fee,
  type Hold,
  inlandDestination,
  type ShipmentSnapshot,
} from './snapshot.js';
import { resolveWhen } from './time.js';
import { isoSeconds } from '../lib/dates.js';

const CUSTOMS_SELECTIONS: ReadonlySet<Milestone> = new Set(['customs_selected_for_scan', 'customs_selected_for_inspection']);

/** Milestones that put the box on a vessel (any water leg) until its discharge at the POD. */
const ON_BOARD: ReadonlySet<Milestone> = new Set([
  'vessel_loaded',
  'vessel_departed',
  'vessel_arrived',
  'vessel_berthed',
  'transshipment_loaded',
  'transshipment_departed',
  'transshipment_arrived',
  'transshipment_discharged',
  'feeder_loaded',
  'feeder_departed',
  'feeder_arrived',
  'feeder_discharged',
]);

/** The container's canonical occurrences (AIS left out) and the lookups the builder's sections share. */
interface ContainerOccurrences {
  mine: Canonical[];
  /** The actuals of a milestone (with a time), in time order. */
  actual: (m: Milestone, filter?: (c: Canonical) => boolean) => Canonical[];
  atPod: (c: Canonical) => boolean;
  atPol: (c: Canonical) => boolean;
}

const first = (list: Canonical[]) => list[0];
const last = (list: Canonical[]) => list[list.length - 1];

/** Reads a free-form time (appointments): an instant when it has an offset, else a wall time or a date. */
function looseWhen(text: string | null): When | null {
  if (!text) return null;
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return { at: null, localDateTime: null, localDate: t };
  if (/(?:Z|[+-]\d{2}:?\d{2})$/i.test(t)) return { at: t, localDateTime: null, localDate: null };
  return { at: null, localDateTime: t, localDate: null };
}

function sortHolds(holds: HoldFact[]): Hold[] {
  return holds.map((h) => ({ name: h.name, status: h.status, description: h.description?.trim() || null })).sort(compareHolds);
}

/** Fee lines as given, in a stable order; a `total` line stays a line of its own and nothing is summed. */
function sortFees(fees: FeeFact[]): Fee[] {
  return fees.map((f) => ({ type: f.type, amount: f.amount, currency_code: f.currencyCode })).sort(compareFees);
}

/** Container `n` from every source's word, derived at world now. */
export function buildContainer(reading: SourceReading, shipment: ShipmentSnapshot | null, n: string, nowMs: number): ContainerSnapshot {
  const { podLocode, pol } = reading;
  // AIS gives transport events only: the container's dates are the line's, terminal's and railroad's.
  const mine = reading.canonical.filter((c) => c.container === n && c.dataSource !== 'ais');
  const occurrences: ContainerOccurrences = {
    mine,
    actual: (m, filter = () => true) => mine.filter((c) => c.milestone === m && c.classifier === 'actual' && c.time && filter(c)),
    atPod: (c) => podLocode === null || c.place?.locode === podLocode,
    atPol: (c) => pol?.locode == null || c.place?.locode === pol.locode,
  };

  const c: ContainerSnapshot = emptyContainer(n);
  c.rail_move = reading.railContainers.has(n);
  // A bill of lading to an inland rail hub: bound inland by rail before any rail leg is reported.
  c.bound_inland = shipment && reading.carrierContainers.includes(n) ? inlandDestination(shipment) : null;
  setIdentity(c, reading);
  setOceanDates(c, occurrences);
  setRailLeg(c, reading, occurrences);
  setPickupAndReturn(c, reading, occurrences);
  setPlaces(c, reading, shipment, occurrences);
  setTerminalYard(c, reading, occurrences);
  setRailYard(c, reading);
  return deriveContainer(c, shipment, isoSeconds(nowMs));
}

/** Identity: the carrier's word first, then terminals', then railroads'. */
function setIdentity(c: ContainerSnapshot, reading: SourceReading): void {
  for (const { obs } of reading.sources) {
    const fact = obs.facts.containers.find((f) => containerNumber(f.number) === c.number);
    if (!fact) continue;
    c.iso_size_type ??= fact.isoSizeType?.trim().toUpperCase() || null;
    c.seal_number ??= fact.sealNumber?.trim() || null;
    if (c.weight_in_lbs === null && fact.weightLbs !== null) {
      c.weight_in_lbs = fact.weightLbs;
      c.weight_is_shipment_average = fact.weightIsShipmentAverage;
    }
  }
}

/** From the empty out to the discharge at the POD. */
function setOceanDates(c: ContainerSnapshot, { mine, actual, atPod, atPol }: ContainerOccurrences): void {
  c.empty_out_at = first(actual('empty_out'))?.time?.at ?? null;
  c.on_board_at = first(mine.filter((x) => ON_BOARD.has(x.milestone) && x.classifier === 'actual' && x.time))?.time?.at ?? null;
  c.pol_full_in_at = first(actual('full_in', atPol))?.time?.at ?? null;
  c.pol_vessel_loaded_at = first(actual('vessel_loaded'))?.time?.at ?? null;
  c.pol_vessel_departed_at = first(actual('vessel_departed', atPol))?.time?.at ?? null;
  c.pod_arrived_at = last(actual('vessel_arrived', atPod))?.time?.at ?? null;
  c.pod_discharged_at = last(actual('vessel_discharged', atPod))?.time?.at ?? null;
}

/** The railroads, rail dates and the railroad's own ETA/ATA at the inland destination. */
function setRailLeg(c: ContainerSnapshot, reading: SourceReading, { mine, actual }: ContainerOccurrences): void {
  const railStart = mine.filter((x) => (x.milestone === 'rail_loaded' || x.milestone === 'rail_departed') && x.railScac);
  c.pod_rail_carrier_scac = first(railStart)?.railScac ?? null;
  const railEnd = mine.filter((x) => ['rail_arrived', 'rail_unloaded', 'arrived_at_destination'].includes(x.milestone) && x.railScac);
  c.ind_rail_carrier_scac = last(railEnd)?.railScac ?? null;
  c.pod_rail_loaded_at = first(actual('rail_loaded'))?.time?.at ?? null;
  c.pod_rail_departed_at = first(actual('rail_departed'))?.time?.at ?? null;
  c.ind_rail_unloaded_at = last(actual('rail_unloaded'))?.time?.at ?? null;

  // The railroad's own ETA/ATA at the inland destination, from rail sources only: the line's stays on the
  // shipment's destination_eta_at/ata_at.
  const fromRail = reading.candidates.filter((x) => x.container === c.number && x.dataSource === 'rail' && x.time);
  // (A rail arrival at the destination counts: it was copied to arrived_at_destination above. An arrival
  // elsewhere may be an interchange, so without a known destination only the railroad's own word counts.)
  const indArrival = fromRail.filter((x) => x.milestone === 'arrived_at_destination');
  c.ind_ata_at = indArrival.filter((x) => x.classifier === 'actual').sort(byTime)[0]?.time?.at ?? null;
  const indEstimate = indArrival.filter((x) => x.classifier !== 'actual').sort(preference)[0];
  c.ind_eta_at = indEstimate?.time?.at ?? null;
}

/** Full out, empty return, customs selections and delivery. */
function setPickupAndReturn(c: ContainerSnapshot, reading: SourceReading, { mine, actual }: ContainerOccurrences): void {
  const n = c.number;
  // full_out / empty_in: the rail terminal's for rail moves, the ocean terminal's otherwise.
  const fullOuts = actual('full_out');
  c.final_destination_full_out_at =
    last(fullOuts.filter((x) => x.place?.facility?.kind === 'rail_terminal' || railSide(reading, n, x.place)))?.time?.at ?? null;
  c.pod_full_out_at =
    last(fullOuts.filter((x) => !(x.place?.facility?.kind === 'rail_terminal' || railSide(reading, n, x.place))))?.time?.at ?? null;
  const emptyIn = last(actual('empty_in'));
  c.empty_terminated_at = emptyIn?.time?.at ?? null;
  c.empty_terminated_timezone = emptyIn?.time?.timezone ?? null;
  // Customs selections open a hold until a later customs release; [] once all are released.
  const selections = mine.filter((x) => CUSTOMS_SELECTIONS.has(x.milestone) && x.classifier === 'actual' && x.time);
  const release = last(actual('customs_release'));
  if (selections.length > 0 || release) {
    const open = selections.filter((x) => !release || x.ms > release.ms);
    c.customs_selection_holds = [
      ...new Set(open.map((x) => (x.milestone === 'customs_selected_for_scan' ? 'scan' : 'inspection') as 'scan' | 'inspection')),
    ]
      .map((k) => ({ ...CUSTOMS_SELECTION_HOLDS[k] }))
      .sort(compareHolds);
  }
  // A carrier's drop-off at the consignee stays a raw event: `delivered` is the user's word only.
  c.delivered_at = null;
}

/** The POD terminal and the inland pickup facility, with their time zones. */
function setPlaces(c: ContainerSnapshot, reading: SourceReading, shipment: ShipmentSnapshot | null, o: ContainerOccurrences): void {
  const { mine, actual, atPod } = o;
  // The POD terminal: the terminal's own report, else where the line discharged it, else the B/L's POD.
  const term = reading.terminalYard.get(c.number);
  const termPlace = term ? resolvePlace(term.yard.facility, 'terminal') : null;
  const discharge = last(actual('vessel_discharged', atPod)) ?? last(mine.filter((x) => x.milestone === 'vessel_discharged'));
  c.pod_terminal = termPlace?.facility ?? discharge?.place?.facility ?? shipment?.pod_terminal ?? null;
  c.pod_terminal_source = termPlace?.facility ? 'terminal' : c.pod_terminal ? 'shipping_line' : null;
  c.pod_timezone = termPlace?.timezone ?? reading.pod?.timezone ?? discharge?.place?.timezone ?? null;

  const railInfo = reading.railYard.get(c.number);
  const railPlace = railInfo ? resolvePlace(railInfo.yard.facility, 'rail_terminal') : null;
  const inlandEvent = last(mine.filter((x) => ['rail_arrived', 'rail_unloaded', 'arrived_at_destination'].includes(x.milestone)));
  c.pickup_facility = railPlace?.facility ?? (c.rail_move ? (inlandEvent?.place?.facility ?? null) : null);
  c.final_destination_timezone = c.rail_move
    ? (railPlace?.timezone ?? inlandEvent?.place?.timezone ?? reading.destination?.timezone ?? null)
    : null;
}

/** What the POD terminal says (else the line's word on off-dock and availability), and the line's LFD. */
function setTerminalYard(c: ContainerSnapshot, reading: SourceReading, { mine }: ContainerOccurrences): void {
  const n = c.number;
  const term = reading.terminalYard.get(n);
  if (term) {
    const y = term.yard;
    c.pod_terminal_available_for_pickup = y.available;
    c.pod_terminal_off_dock = y.offDock === true;
    c.holds_at_pod_terminal = y.holds ? sortHolds(y.holds) : null;
    c.fees_at_pod_terminal = y.fees ? sortFees(y.fees) : null;
    c.pickup_lfd_terminal = resolveWhen(y.lastFreeDay, c.pod_timezone)?.at ?? null;
    c.pickup_appointment_at = resolveWhen(looseWhen(y.appointmentAt), c.pod_timezone)?.at ?? null;
    c.location_at_pod_terminal = y.yardLocation?.trim() || null;
    c.pod_full_out_chassis_number = y.chassisNumber?.trim() || null;
  } else {
    // Without a terminal, the line's word that the box went to an off-dock yard (DCSA facility type OFFD) stands.
    c.pod_terminal_off_dock = (reading.input.carrier?.facts.yard ?? []).some(
      (y) => containerNumber(y.containerNumber) === n && y.offDock === true,
    );
    // Without a terminal, the line's own availability milestones are the best word there is.
    const avail = [...mine.filter((x) => (x.milestone === 'available' || x.milestone === 'not_available') && x.classifier === 'actual')].at(
      -1,
    );
    c.pod_terminal_available_for_pickup = avail ? avail.milestone === 'available' : null;
  }
  const lineLfd = reading.carrierYard.get(n)?.yard.lineLastFreeDay ?? term?.yard.lineLastFreeDay ?? null;
  c.pickup_lfd_line = resolveWhen(lineLfd, c.pod_timezone)?.at ?? null;
}

/** What the railroad says at the inland pickup facility. */
function setRailYard(c: ContainerSnapshot, reading: SourceReading): void {
  const railInfo = reading.railYard.get(c.number);
  if (railInfo) {
    const y = railInfo.yard;
    c.ind_facility_available_for_pickup = y.available;
    c.ind_facility_holds = y.holds ? sortHolds(y.holds) : null;
    c.ind_facility_fees = y.fees ? sortFees(y.fees) : null;
    c.pickup_lfd_rail = resolveWhen(y.lastFreeDay, c.final_destination_timezone)?.at ?? null;
  }
}

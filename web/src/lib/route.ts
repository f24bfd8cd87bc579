// A shipment's route as stops — port of lading, transshipment ports and rail interchanges, port of discharge,
// inland destination — each with its arrival and departure, actual or estimated, from the shipment's
// attributes and a container's transport events; and the legs between them.
import { Included, type Resource } from './jsonapi';
import type { PlaceAttributes, ShipmentAttributes, TransportEvent, VesselAttributes } from './tracking';
import { eventInfo } from './tracking';

export type StopRole = 'pol' | 'transshipment' | 'rail' | 'pod' | 'destination';

export const ROLE_WORDS: Record<StopRole, string> = {
  pol: 'Port of lading',
  transshipment: 'Transshipment',
  rail: 'Rail interchange',
  pod: 'Port of discharge',
  destination: 'Inland destination',
};

export interface Moment {
  /** Arrived, Departed, Discharged… */
  label: string;
  at: string;
  zone: string | null;
  actual: boolean;
  /** For estimates: the first one announced, when it differs. */
  original?: string | null;
}

export interface Stop {
  role: StopRole;
  locode: string | null;
  name: string;
  zone: string | null;
  lat: number | null;
  lon: number | null;
  arrival: Moment | null;
  departure: Moment | null;
}

export interface Leg {
  mode: 'vessel' | 'rail';
  /** Reached: the stop it leads to has an actual arrival (or a later stop has any fact). */
  done: boolean;
  /** Left its start, not reached its end yet. */
  underway: boolean;
  vessel: string | null;
  voyage: string | null;
}

export interface Route {
  stops: Stop[];
  /** legs[i] goes from stops[i] to stops[i + 1]. */
  legs: Leg[];
}

const num = (s: string | null | undefined) => {
  const n = s === null || s === undefined ? Number.NaN : Number.parseFloat(s);
  return Number.isFinite(n) ? n : null;
};

/** Places (ports and metro areas) by UN/LOCODE, from any `included`. */
export function placesOf(included: Resource[] | undefined): Map<string, PlaceAttributes> {
  const out = new Map<string, PlaceAttributes>();
  for (const r of included ?? []) {
    if (r.type !== 'port' && r.type !== 'metro_area') continue;
    const a = r.attributes as unknown as PlaceAttributes;
    if (a.code) out.set(a.code, a);
  }
  return out;
}

const ARRIVE = new Set(['transshipment_arrived', 'feeder_arrived', 'rail_arrived', 'vessel_arrived', 'arrived_at_inland_destination']);
const DISCHARGE = new Set(['transshipment_discharged', 'feeder_discharged', 'rail_unloaded', 'vessel_discharged']);
const DEPART = new Set(['transshipment_departed', 'feeder_departed', 'rail_departed', 'vessel_departed']);
const LOAD = new Set(['transshipment_loaded', 'feeder_loaded', 'rail_loaded', 'vessel_loaded']);

/**
 * Builds the route. `events` are one container's transport events (any order; invalidated ones are skipped),
 * `included` what came with them (locations, vessels) and with the shipment (its ports).
 */
export function buildRoute(s: ShipmentAttributes, events: TransportEvent[], included: Resource[] | undefined): Route {
  const places = placesOf(included);
  const inc = new Included(included);
  const live = events
    .filter((e) => !e.attributes.invalidated_at && e.attributes.timestamp && e.attributes.event.startsWith('container.transport.'))
    .sort((a, b) => Date.parse(a.attributes.timestamp!) - Date.parse(b.attributes.timestamp!));

  const stop = (role: StopRole, locode: string | null, name: string | null, zone: string | null): Stop => {
    const p = locode ? places.get(locode) : undefined;
    return {
      role,
      locode,
      name: p?.name ?? name ?? locode ?? 'Unknown',
      zone: zone ?? p?.time_zone ?? null,
      lat: num(p?.latitude),
      lon: num(p?.longitude),
      arrival: null,
      departure: null,
    };
  };
  const moment = (e: TransportEvent, label: string): Moment => ({
    label,
    at: e.attributes.timestamp!,
    zone: e.attributes.timezone,
    actual: !eventInfo(e.attributes.event).estimated,
  });
  /** The first (actual before estimated) event at `locode` whose code is in one of `sets`, in that order. */
  const find = (locode: string | null, ...sets: Set<string>[]) => {
    for (const set of sets) {
      const at = live.filter((e) => e.attributes.location_locode === locode && set.has(eventInfo(e.attributes.event).code ?? ''));
      const actual = at.find((e) => !eventInfo(e.attributes.event).estimated);
      if (actual) return actual;
      if (at[0]) return at[0];
    }
    return undefined;
  };

  const pol = stop('pol', s.port_of_lading_locode, s.port_of_lading_name, s.pol_timezone);
  if (s.pol_atd_at) pol.departure = { label: 'Departed', at: s.pol_atd_at, zone: s.pol_timezone, actual: true };
  else if (s.pol_etd_at)
    pol.departure = { label: 'Departure', at: s.pol_etd_at, zone: s.pol_timezone, actual: false, original: s.pol_original_etd_at ?? null };
  else {
    const e = find(pol.locode, DEPART, LOAD);
    if (e) pol.departure = moment(e, 'Departed');
  }

  const pod = stop('pod', s.port_of_discharge_locode, s.port_of_discharge_name, s.pod_timezone);
  if (s.pod_ata_at) pod.arrival = { label: 'Arrived', at: s.pod_ata_at, zone: s.pod_timezone, actual: true };
  else if (s.pod_eta_at)
    pod.arrival = { label: 'Arrival', at: s.pod_eta_at, zone: s.pod_timezone, actual: false, original: s.pod_original_eta_at };
  const podOut = find(pod.locode, new Set(['rail_departed']), new Set(['full_out']));
  if (podOut) pod.departure = moment(podOut, eventInfo(podOut.attributes.event).code === 'full_out' ? 'Picked up' : 'Left by rail');

  const hasDestination = !!s.destination_locode && s.destination_locode !== s.port_of_discharge_locode;
  const dest = hasDestination ? stop('destination', s.destination_locode, s.destination_name, s.destination_timezone) : null;
  if (dest) {
    if (s.destination_ata_at) dest.arrival = { label: 'Arrived', at: s.destination_ata_at, zone: s.destination_timezone, actual: true };
    else if (s.destination_eta_at)
      dest.arrival = {
        label: 'Arrival',
        at: s.destination_eta_at,
        zone: s.destination_timezone,
        actual: false,
        original: s.destination_original_eta_at ?? null,
      };
    const out = find(dest.locode, new Set(['full_out']));
    if (out) dest.departure = moment(out, 'Picked up');
  }

  // Stops between: every other place a transshipment, feeder or rail event happened at, in the order reached.
  const skip = new Set([pol.locode, pod.locode, dest?.locode].filter(Boolean));
  const middle: Stop[] = [];
  for (const e of live) {
    const locode = e.attributes.location_locode;
    const code = eventInfo(e.attributes.event).code ?? '';
    if (!locode || skip.has(locode) || middle.some((m) => m.locode === locode)) continue;
    if (!/^(transshipment|feeder|rail)_/.test(code)) continue;
    const m = stop(code.startsWith('rail_') ? 'rail' : 'transshipment', locode, null, e.attributes.timezone);
    const arr = find(locode, ARRIVE, DISCHARGE);
    const dep = find(locode, DEPART, LOAD);
    if (arr) m.arrival = moment(arr, 'Arrived');
    if (dep) m.departure = moment(dep, 'Departed');
    middle.push(m);
  }

  const stops = [pol, ...middle, pod, ...(dest ? [dest] : [])];
  const factAt = (i: number) => stops.slice(i).some((x) => x.arrival?.actual || x.departure?.actual);
  const legs: Leg[] = stops.slice(0, -1).map((from, i) => {
    const to = stops[i + 1]!;
    const rail = to.role === 'rail' || to.role === 'destination' || from.role === 'rail';
    // The vessel or train that left `from`: its departure (or loading) event names the voyage and the vessel.
    const dep = find(from.locode, DEPART, LOAD);
    const vessel = dep ? inc.get<VesselAttributes>(dep.relationships?.vessel?.data as never)?.attributes.name : null;
    const done = !!to.arrival?.actual || factAt(i + 2);
    return {
      mode: rail ? 'rail' : 'vessel',
      done,
      underway: !done && !!from.departure?.actual,
      vessel: rail ? null : (vessel ?? (to.role === 'pod' ? s.pod_vessel_name : null)),
      voyage: rail ? null : (dep?.attributes.voyage_number ?? (to.role === 'pod' ? s.pod_voyage_number : null)),
    };
  });
  return { stops, legs };
}

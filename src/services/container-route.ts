// A container's ocean route: its ports in order (POL, transshipment ports, POD) with their estimated and actual
// times, and the vessel legs between them. Pure: the shipment as stored and the container's raw events in.
// Both GET /v2/containers/{id}/map_geojson and the MCP tool get_container_route are built from it.
import type { ContainerRecord } from '../storage/repositories/containers.js';
import type { ShipmentRecord } from '../storage/repositories/shipments.js';
import type { VesselPositionRow, VesselRow } from '../storage/repositories/vessels.js';
import type { RawEventRecord } from '../tracking/raw-events.js';
import { findPort, type PortPlace } from './places.js';
import { normalizeImo } from './vessels.js';

/** The shipment fields a route is read from (a ShipmentRecord has them all). */
export interface RouteShipment {
  port_of_lading_locode: string | null;
  port_of_lading_name: string | null;
  pol_etd_at: Date | null;
  pol_atd_at: Date | null;
  pol_timezone: string | null;
  port_of_discharge_locode: string | null;
  port_of_discharge_name: string | null;
  pod_eta_at: Date | null;
  pod_ata_at: Date | null;
  pod_timezone: string | null;
  pod_vessel_name: string | null;
  pod_vessel_imo: string | null;
  pod_voyage_number: string | null;
}

export type RouteEvent = Pick<
  RawEventRecord,
  'event' | 'estimated' | 'timestamp' | 'location_locode' | 'location_name' | 'timezone' | 'vessel_name' | 'vessel_imo' | 'voyage_number'
>;

export interface RouteStop {
  /** 1 = the POL … last = the POD. */
  sequence: number;
  /** `POL`, `TS1`, `TS2`…, `POD`. */
  label: string;
  role: 'port_of_lading' | 'transshipment' | 'port_of_discharge';
  locode: string;
  name: string | null;
  timezone: string | null;
  /** The reference port, with its position; null for a LOCODE missing from the port table. */
  port: PortPlace | null;
  inbound_eta_at: Date | null;
  inbound_ata_at: Date | null;
  outbound_etd_at: Date | null;
  outbound_atd_at: Date | null;
}

export interface RouteVessel {
  imo: string | null;
  name: string | null;
  voyage_number: string | null;
}

export interface RouteLeg {
  /** The sequence of the stop it leaves. */
  sequence: number;
  from: RouteStop;
  to: RouteStop;
  vessel: RouteVessel | null;
  /** `arrived` once it arrived (or a later stop has an actual time), `sailing` once it departed, else `planned`. */
  status: 'planned' | 'sailing' | 'arrived';
}

export interface RoutePlan {
  stops: RouteStop[];
  legs: RouteLeg[];
  /** The leg the container is sailing now, if any. */
  current: RouteLeg | null;
}

/** A container's route with what is known of its vessels: the plan, the stored vessels, the tracks sailed. */
export interface ContainerRoute extends RoutePlan {
  container: ContainerRecord;
  shipment: ShipmentRecord;
  /** The stored vessels of the legs, by IMO number (with their latest AIS position). */
  vessels: Map<string, VesselRow>;
  /** By leg sequence: the AIS positions gathered for the leg's vessel from its departure to its arrival (or now). */
  tracks: Map<number, VesselPositionRow[]>;
  /** Domain time the route was read at. */
  now: Date;
}

const ARRIVALS = new Set(['vessel_arrived', 'transshipment_arrived', 'feeder_arrived']);
const DEPARTURES = new Set(['vessel_departed', 'transshipment_departed', 'feeder_departed']);
const LOADS = new Set(['vessel_loaded', 'transshipment_loaded', 'feeder_loaded']);
const DISCHARGES = new Set(['vessel_discharged', 'transshipment_discharged', 'feeder_discharged']);
/** Milestones of the container on a vessel at a port: what places a port on the ocean route. */
const VESSEL_MOVES = new Set([...ARRIVALS, ...DEPARTURES, ...LOADS, ...DISCHARGES]);

const time = (iso: string | null): Date | null => (iso ? new Date(iso) : null);
const text = (v: string | null | undefined): string | null => v?.trim() || null;

/**
 * The ports of the route and the legs between them. The POL and POD are the shipment's; the ports between
 * are those where the container's vessel moves (transshipment and feeder events, or vessel events at another
 * port) put it, in the order it reached them. The shipment's ETD/ATD at the POL and ETA/ATA at the POD win
 * over the events' (they are the engine's merged values); the other times come from the latest events.
 */
export function planRoute(shipment: RouteShipment, events: readonly RouteEvent[]): RoutePlan {
  const moves = events.filter((e) => e.event !== null && VESSEL_MOVES.has(e.event) && text(e.location_locode));
  const locode = (e: RouteEvent) => text(e.location_locode)!.toUpperCase();
  const pol = text(shipment.port_of_lading_locode)?.toUpperCase() ?? null;
  const pod = text(shipment.port_of_discharge_locode)?.toUpperCase() ?? null;

  // Ports in between, in the order of their first event (events come in time order, untimed ones last).
  const between: string[] = [];
  for (const e of moves) {
    const at = locode(e);
    if (at !== pol && at !== pod && !between.includes(at)) between.push(at);
  }
  const codes = [...(pol ? [pol] : []), ...between, ...(pod && pod !== pol ? [pod] : [])];

  /** The last event of these milestones at a port, split into its estimate and its actual. */
  const timesAt = (code: string, milestones: Set<string>) => {
    let estimated: Date | null = null;
    let actual: Date | null = null;
    for (const e of moves) {
      if (locode(e) !== code || !milestones.has(e.event!)) continue;
      if (e.estimated) estimated = time(e.timestamp) ?? estimated;
      else actual = time(e.timestamp) ?? actual;
    }
    return { estimated, actual };
  };
  const firstAt = (code: string) => moves.find((e) => locode(e) === code);

  let transshipments = 0;
  const stops: RouteStop[] = codes.map((code, i) => {
    const role: RouteStop['role'] = code === pol && i === 0 ? 'port_of_lading' : code === pod ? 'port_of_discharge' : 'transshipment';
    const port = findPort(code) ?? null;
    const inbound = timesAt(code, ARRIVALS);
    const outbound = timesAt(code, DEPARTURES);
    const seen = firstAt(code);
    const stop: RouteStop = {
      sequence: i + 1,
      label: role === 'port_of_lading' ? 'POL' : role === 'port_of_discharge' ? 'POD' : `TS${++transshipments}`,
      role,
      locode: code,
      name: text(seen?.location_name) ?? port?.name ?? null,
      timezone: text(seen?.timezone) ?? port?.timeZone ?? null,
      port,
      inbound_eta_at: inbound.estimated,
      inbound_ata_at: inbound.actual,
      outbound_etd_at: outbound.estimated,
      outbound_atd_at: outbound.actual,
    };
    if (role === 'port_of_lading') {
      stop.name = text(shipment.port_of_lading_name) ?? stop.name;
      stop.timezone = text(shipment.pol_timezone) ?? stop.timezone;
      stop.outbound_etd_at = shipment.pol_etd_at ?? stop.outbound_etd_at;
      stop.outbound_atd_at = shipment.pol_atd_at ?? stop.outbound_atd_at;
      stop.inbound_eta_at = null;
      stop.inbound_ata_at = null;
    }
    if (role === 'port_of_discharge') {
      stop.name = text(shipment.port_of_discharge_name) ?? stop.name;
      stop.timezone = text(shipment.pod_timezone) ?? stop.timezone;
      stop.inbound_eta_at = shipment.pod_eta_at ?? stop.inbound_eta_at;
      stop.inbound_ata_at = shipment.pod_ata_at ?? stop.inbound_ata_at;
      stop.outbound_etd_at = null;
      stop.outbound_atd_at = null;
    }
    return stop;
  });

  const vesselOf = (e: RouteEvent | undefined): RouteVessel | null => {
    if (!e) return null;
    const imo = normalizeImo(e.vessel_imo);
    const name = text(e.vessel_name);
    return imo || name ? { imo, name, voyage_number: text(e.voyage_number) } : null;
  };
  const lastAt = (code: string, milestones: Set<string>) => moves.filter((e) => locode(e) === code && milestones.has(e.event!)).at(-1);

  const legs: RouteLeg[] = [];
  for (let i = 0; i + 1 < stops.length; i++) {
    const from = stops[i]!;
    const to = stops[i + 1]!;
    let vessel =
      vesselOf(lastAt(from.locode, DEPARTURES)) ??
      vesselOf(lastAt(from.locode, LOADS)) ??
      vesselOf(lastAt(to.locode, ARRIVALS)) ??
      vesselOf(lastAt(to.locode, DISCHARGES));
    if (!vessel && to.role === 'port_of_discharge') {
      const imo = normalizeImo(shipment.pod_vessel_imo);
      const name = text(shipment.pod_vessel_name);
      if (imo || name) vessel = { imo, name, voyage_number: text(shipment.pod_voyage_number) };
    }
    legs.push({ sequence: from.sequence, from, to, vessel, status: 'planned' });
  }
  // A leg has arrived when its own arrival, or anything actual at a later port, says so.
  let actualFromHere = false;
  for (let i = legs.length - 1; i >= 0; i--) {
    const leg = legs[i]!;
    actualFromHere ||= leg.to.inbound_ata_at !== null || leg.to.outbound_atd_at !== null;
    leg.status = actualFromHere ? 'arrived' : leg.from.outbound_atd_at !== null ? 'sailing' : 'planned';
  }
  return { stops, legs, current: legs.find((l) => l.status === 'sailing') ?? null };
}

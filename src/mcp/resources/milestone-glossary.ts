// tidemark://docs/milestone-glossary: every transport event Tidemark emits with its meaning, actual vs estimated,
// and where local times and zones come from. Keyed by the event vocabulary so a new event name fails typecheck here.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type PickupChangeEventName,
  TRANSPORT_EVENT_NAMES,
  PICKUP_CHANGE_EVENT_NAMES,
  type TransportEventName,
} from '../../domain/events.js';
import type { ToolContext } from '../context.js';

export const GLOSSARY_URI = 'tidemark://docs/milestone-glossary';

const TRANSPORT_MEANINGS: Record<TransportEventName, string> = {
  'container.transport.empty_out': 'The empty container left the depot or terminal to the shipper for loading.',
  'container.transport.full_in': 'The loaded container was gated in at the port of lading terminal.',
  'container.transport.vessel_loaded': 'The container was loaded onto the vessel at the port of lading.',
  'container.transport.vessel_departed': 'The vessel carrying the container departed the port of lading.',
  'container.transport.estimated.vessel_departed': 'The expected departure time of the vessel from the port of lading.',
  'container.transport.transshipment_arrived': 'The vessel arrived at a transshipment port.',
  'container.transport.transshipment_discharged': 'The container was discharged at a transshipment port.',
  'container.transport.transshipment_loaded': 'The container was loaded onto the next vessel at a transshipment port.',
  'container.transport.transshipment_departed': 'The vessel carrying the container departed a transshipment port.',
  'container.transport.feeder_arrived': 'The feeder vessel carrying the container arrived at a port.',
  'container.transport.feeder_discharged': 'The container was discharged from a feeder vessel.',
  'container.transport.feeder_loaded': 'The container was loaded onto a feeder vessel.',
  'container.transport.feeder_departed': 'The feeder vessel carrying the container departed a port.',
  'container.transport.vessel_arrived': 'The vessel arrived at the port of discharge.',
  'container.transport.estimated.vessel_arrived': 'The expected arrival time of the vessel at the port of discharge (ETA).',
  'container.transport.vessel_berthed': 'The vessel berthed at the port of discharge terminal.',
  'container.transport.vessel_discharged': 'The container was discharged from the vessel at the port of discharge.',
  'container.transport.available': 'The container became available for pickup (no holds blocking it at the terminal or inland facility).',
  'container.transport.not_available': 'The container stopped being available for pickup (a hold or the terminal says so).',
  'container.transport.full_out': 'The loaded container was picked up (gated out) from the terminal or rail facility.',
  'container.transport.rail_loaded': 'The container was loaded onto a train for an inland move.',
  'container.transport.rail_departed': 'The train carrying the container departed.',
  'container.transport.rail_arrived': 'The train carrying the container arrived at the inland rail terminal.',
  'container.transport.rail_unloaded': 'The container was unloaded from the train.',
  'container.transport.arrived_at_inland_destination': 'The container arrived at its inland destination.',
  'container.transport.estimated.arrived_at_inland_destination': 'The expected arrival time at the inland destination.',
  'container.transport.delivered': 'The container was delivered to the consignee (reported, or marked by hand in Tidemark).',
  'container.transport.empty_in': 'The empty container was returned to the depot or terminal; tracking of the box ends.',
};

const PICKUP_MEANINGS: Record<PickupChangeEventName, string> = {
  'container.pickup_lfd.changed':
    "The reference's coalesced last free day (pickup_lfd: the line's if given, else the terminal's, else the rail's) changed; `value` is the new one. It is not necessarily the binding one (see Last free days).",
  'container.pickup_lfd_line.changed': "The shipping line's last free day (import_deadlines.pickup_lfd_line) changed.",
  'container.pickup_lfd_terminal.changed': "The terminal's last free day (import_deadlines.pickup_lfd_terminal) changed.",
  'container.pickup_lfd_rail.changed': "The railroad's last free day (import_deadlines.pickup_lfd_rail) changed.",
  'container.pickup_appointment.changed':
    'The pickup appointment (pickup_appointment_at) was booked, moved or cancelled; `value` is the new time.',
};

export function milestoneGlossary(): string {
  const line = (name: string, meaning: string) => `- \`${name}\` — ${meaning}`;
  return [
    '# Tidemark milestone glossary',
    '',
    'The transport events Tidemark records for a container (`get_container_transport_events`, `GET /v2/containers/{id}/transport_events`) and announces to webhooks. Each event has `event`, `timestamp`, `timezone`, `location_locode`, `data_source` (shipping_line, terminal, rail, ais or user), `observed_at` (when Tidemark first saw it, or this version of it) and, for pickup changes, `value`. They are listed newest first by `timestamp`; pickup changes, whose `timestamp` is the new date, by `observed_at`.',
    '',
    '## Transport events',
    '',
    ...TRANSPORT_EVENT_NAMES.map((name) => line(name, TRANSPORT_MEANINGS[name])),
    '',
    '## Pickup changes',
    '',
    "Also stored among a container's transport events:",
    '',
    ...PICKUP_CHANGE_EVENT_NAMES.map((name) => line(name, PICKUP_MEANINGS[name])),
    '',
    'Shipment-level ETA changes are `shipment.estimated.arrival` events (the ETA history: `GET /v2/shipments/{id}/estimated_events`).',
    '',
    '## Last free days',
    '',
    "- `import_deadlines.pickup_lfd_line`, `pickup_lfd_terminal` and `pickup_lfd_rail` are each party's last free day, a local midnight: the line's and the terminal's in the POD's zone (`pod_timezone`), the railroad's in the inland destination's (`final_destination_timezone`).",
    "- `pickup_lfd` is the reference API's field, kept as the reference defines it: the line's last free day if given, else the terminal's, else the rail's — the first available, not the earliest.",
    "- `pickup_lfd_binding` (a Tidemark extension) is the last free day to act on: the earliest of those that apply where the box is picked up, compared as local dates — at the POD terminal the line's and the terminal's, at an off-dock yard the terminal's and the line's, at an inland rail facility the railroad's and the line's. `pickup_lfd_binding_party` (`line`, `terminal` or `rail`) says whose date it is and `pickup_lfd_binding_timezone` the calendar it is counted in. A terminal's free time can end days before the line's: then `pickup_lfd` is the line's later date and `pickup_lfd_binding` the terminal's.",
    "- Days left are not stored (they change every day): `get_container` returns them in `last_free_day`, counted at Tidemark's world time (the sandbox clock while the sandbox is on) in that calendar. Once the box has left its pickup place (`picked_up`, `delivered`, `empty_returned`, `dropped`, `loaded`; `off_dock` has not) nothing is counted: it says how the pickup fell against the date instead.",
    '',
    '## Actual vs estimated',
    '',
    '- Names with `.estimated.` (`container.transport.estimated.vessel_arrived`, `…estimated.vessel_departed`, `…estimated.arrived_at_inland_destination`) are forecasts: their `timestamp` is when the event is expected, and it may change or the event may be replaced by the actual one.',
    '- Every other name is an actual event: it happened at `timestamp`. A source claiming an actual event in the future is treated as an estimate.',
    '- On containers and shipments, `*_eta_at` / `*_etd_at` are estimates and `*_ata_at` / `*_atd_at` actuals; `pod_original_eta_at` is the first ETA Tidemark saw, so `pod_eta_at − pod_original_eta_at` is the delay so far.',
    '',
    '## Times and zones',
    '',
    '- Every `timestamp` and `*_at` value is an instant in ISO 8601 UTC with a `Z` (e.g. `2026-02-25T15:03:44Z`).',
    "- `timezone` is the IANA zone of the event's place (port, terminal or rail hub), from Tidemark's reference data for that place; null when the place's zone is unknown. Convert the UTC instant to it to show local time.",
    "- Carriers and terminals often give local wall times or bare dates without an offset; Tidemark reads them in the place's zone (a bare date is local midnight) and stores the UTC instant. When the zone is unknown they are read as UTC.",
    '- Shipments carry `pol_timezone`, `pod_timezone` and `destination_timezone` for their ports; last free days are counted in local days of the port (or of the inland destination for rail moves).',
    '',
  ].join('\n');
}

export function registerMilestoneGlossary(server: McpServer, _ctx: ToolContext) {
  server.registerResource(
    'milestone-glossary',
    GLOSSARY_URI,
    {
      title: 'Milestone glossary',
      description:
        'Every transport event Tidemark emits with a one-line meaning; the last free day fields (pickup_lfd_binding to act on, pickup_lfd as the reference coalesces it); actual vs estimated; where local times and zones come from.',
      mimeType: 'text/markdown',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: milestoneGlossary() }] }),
  );
}

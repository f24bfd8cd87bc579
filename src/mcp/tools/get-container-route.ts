// get_container_route: the ports of the container's voyage (POL, transshipment ports, POD, and the inland
// destination) with their estimates and actuals, the vessel legs between them, and the vessel the container is
// on with its last known position. The same route map_geojson draws; gated by the `routing` feature as it is.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { hasFeature } from '../../domain/account.js';
import { isoSeconds } from '../../lib/dates.js';
import type { RouteStop } from '../../services/containers.js';
import { normalizeImo } from '../../services/vessels.js';
import type { ToolContext } from '../context.js';
import { guarded, ok, READ_ONLY } from '../results.js';
import { notTracked } from './get-container.js';

const NOT_ENABLED = 'Routing data feature is not enabled for this account';

const stop = z.object({
  role: z.enum(['port_of_lading', 'transshipment', 'port_of_discharge', 'destination']),
  /** 1 = POL … on the ocean route; absent for the inland destination. */
  sequence: z.number().int().optional(),
  label: z.string().optional(),
  locode: z.string().nullable(),
  name: z.string().nullable(),
  timezone: z.string().nullable(),
  estimated_departure: z.string().nullable().optional(),
  actual_departure: z.string().nullable().optional(),
  estimated_arrival: z.string().nullable().optional(),
  actual_arrival: z.string().nullable().optional(),
});

const leg = z.object({
  sequence: z.number().int(),
  from: z.string(),
  to: z.string(),
  status: z.enum(['planned', 'sailing', 'arrived']),
  vessel_name: z.string().nullable(),
  vessel_imo: z.string().nullable(),
  voyage_number: z.string().nullable(),
});

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const time = (v: unknown): string | null => (v instanceof Date ? isoSeconds(v) : text(v));

/** A route stop as the tool lists it: departures for ports left, arrivals for ports reached. */
function stopOf(s: RouteStop): z.infer<typeof stop> {
  return {
    role: s.role,
    sequence: s.sequence,
    label: s.label,
    locode: s.locode,
    name: s.name,
    timezone: s.timezone,
    ...(s.role === 'port_of_lading' ? {} : { estimated_arrival: time(s.inbound_eta_at), actual_arrival: time(s.inbound_ata_at) }),
    ...(s.role === 'port_of_discharge' ? {} : { estimated_departure: time(s.outbound_etd_at), actual_departure: time(s.outbound_atd_at) }),
  };
}

export function registerGetContainerRoute(server: McpServer, { deps, account }: ToolContext) {
  server.registerTool(
    'get_container_route',
    {
      title: "A container's route",
      description:
        "The container's route: port of lading, transshipment ports, port of discharge and inland destination with their estimated and actual times, the vessel legs between the ports (planned, sailing, arrived), and the vessel the container is on with its last known position. Needs the account's routing feature.",
      inputSchema: { id: z.string().uuid().describe('The container id') },
      outputSchema: {
        feature_enabled: z.boolean(),
        message: z.string().optional(),
        container_id: z.string().optional(),
        container_number: z.string().optional(),
        shipment_id: z.string().optional(),
        stops: z.array(stop).optional(),
        legs: z.array(leg).optional(),
        vessel: z
          .object({
            name: z.string().nullable(),
            imo: z.string().nullable(),
            voyage_number: z.string().nullable(),
            position: z
              .object({
                latitude: z.number(),
                longitude: z.number(),
                speed_knots: z.number().nullable(),
                heading_degrees: z.number().nullable(),
                at: z.string().nullable(),
              })
              .nullable(),
          })
          .nullable()
          .optional(),
      },
      annotations: READ_ONLY,
    },
    ({ id }) =>
      guarded(notTracked(id), async () => {
        if (!hasFeature(account, 'routing')) {
          return ok(`${NOT_ENABLED}; ask the account's administrator to enable routing. get_shipment_details has the ports and ETAs.`, {
            feature_enabled: false,
            message: NOT_ENABLED,
          });
        }
        // The same route GET /v2/containers/{id}/map_geojson draws.
        const route = await deps.containers.route(account.id, id);
        const { container, shipment: s } = route;
        const stops = route.stops.map(stopOf);
        // A shipment whose ports the carrier has not named yet still lists them as unknown.
        if (!route.stops.some((x) => x.role === 'port_of_lading')) {
          stops.unshift({ role: 'port_of_lading', locode: null, name: text(s.port_of_lading_name), timezone: text(s.pol_timezone) });
        }
        if (!route.stops.some((x) => x.role === 'port_of_discharge')) {
          stops.push({ role: 'port_of_discharge', locode: null, name: text(s.port_of_discharge_name), timezone: text(s.pod_timezone) });
        }
        if (s.destination_locode) {
          stops.push({
            role: 'destination',
            locode: text(s.destination_locode),
            name: text(s.destination_name),
            timezone: text(s.destination_timezone),
            estimated_arrival: time(s.destination_eta_at),
            actual_arrival: time(s.destination_ata_at),
          });
        }
        const legs = route.legs.map((l) => ({
          sequence: l.sequence,
          from: l.from.locode,
          to: l.to.locode,
          status: l.status,
          vessel_name: l.vessel?.name ?? null,
          vessel_imo: l.vessel?.imo ?? null,
          voyage_number: l.vessel?.voyage_number ?? null,
        }));
        // The vessel the container is on now; before departure or after arrival, the POD vessel.
        const podVessel =
          s.pod_vessel_imo || s.pod_vessel_name
            ? { imo: normalizeImo(s.pod_vessel_imo), name: text(s.pod_vessel_name), voyage_number: text(s.pod_voyage_number) }
            : null;
        const onBoard = route.current?.vessel ?? route.legs.at(-1)?.vessel ?? podVessel;
        const imo = onBoard?.imo ?? null;
        // The route holds its legs' vessels; a POD vessel without a leg (no POL named yet) is looked up.
        const row = imo ? (route.vessels.get(imo) ?? (await deps.vessels.byImos([imo]))[0]) : undefined;
        const vessel = onBoard
          ? {
              name: onBoard.name ?? row?.name ?? null,
              imo,
              voyage_number: onBoard.voyage_number,
              position:
                row && row.latitude !== null && row.longitude !== null
                  ? {
                      latitude: row.latitude,
                      longitude: row.longitude,
                      speed_knots: row.speed_knots,
                      heading_degrees: row.heading_degrees,
                      at: isoSeconds(row.position_at),
                    }
                  : null,
            }
          : null;
        const where = vessel?.position
          ? ` Vessel ${vessel.name ?? vessel.imo} last seen at ${vessel.position.latitude}, ${vessel.position.longitude}.`
          : '';
        return ok(`Route of container ${container.number}: ${stops.map((x) => x.locode ?? '?').join(' → ')}.${where}`, {
          feature_enabled: true,
          container_id: container.id,
          container_number: container.number,
          shipment_id: s.id,
          stops,
          legs,
          vessel,
        });
      }),
  );
}

// get_container_route: the ports of the container's voyage with their estimates and actuals, and the
// vessel's last known position. Gated by the account's `routing` feature, as the REST routing data is.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { hasFeature } from '../../domain/account.js';
import { isoSeconds } from '../../http/jsonapi.js';
import type { ToolContext } from '../context.js';
import { guarded, ok, READ_ONLY } from '../results.js';
import { notTracked } from './get-container.js';

const NOT_ENABLED = 'Routing data feature is not enabled for this account';

const stop = z.object({
  role: z.enum(['port_of_lading', 'port_of_discharge', 'destination']),
  locode: z.string().nullable(),
  name: z.string().nullable(),
  timezone: z.string().nullable(),
  estimated_departure: z.string().nullable().optional(),
  actual_departure: z.string().nullable().optional(),
  estimated_arrival: z.string().nullable().optional(),
  actual_arrival: z.string().nullable().optional(),
});

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const time = (v: unknown): string | null => (v instanceof Date ? isoSeconds(v) : text(v));

export function registerGetContainerRoute(server: McpServer, { deps, account }: ToolContext) {
  server.registerTool(
    'get_container_route',
    {
      title: "A container's route",
      description:
        "The container's route: port of lading, port of discharge and inland destination with their estimated and actual times, the vessel and its last known position. Needs the account's routing feature.",
      inputSchema: { id: z.string().uuid().describe('The container id') },
      outputSchema: {
        feature_enabled: z.boolean(),
        message: z.string().optional(),
        container_id: z.string().optional(),
        container_number: z.string().optional(),
        shipment_id: z.string().optional(),
        stops: z.array(stop).optional(),
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
        const container = await deps.containers.get(account.id, id);
        const s = await deps.shipments.get(account.id, container.shipment_id);
        const stops = [
          {
            role: 'port_of_lading' as const,
            locode: text(s.port_of_lading_locode),
            name: text(s.port_of_lading_name),
            timezone: text(s.pol_timezone),
            estimated_departure: time(s.pol_etd_at),
            actual_departure: time(s.pol_atd_at),
          },
          {
            role: 'port_of_discharge' as const,
            locode: text(s.port_of_discharge_locode),
            name: text(s.port_of_discharge_name),
            timezone: text(s.pod_timezone),
            estimated_arrival: time(s.pod_eta_at),
            actual_arrival: time(s.pod_ata_at),
          },
          ...(s.destination_locode
            ? [
                {
                  role: 'destination' as const,
                  locode: text(s.destination_locode),
                  name: text(s.destination_name),
                  timezone: text(s.destination_timezone),
                  estimated_arrival: time(s.destination_eta_at),
                  actual_arrival: time(s.destination_ata_at),
                },
              ]
            : []),
        ];
        const imo = text(s.pod_vessel_imo);
        const [row] = imo ? await deps.vessels.byImos([imo]) : [];
        const vessel =
          imo || s.pod_vessel_name
            ? {
                name: text(s.pod_vessel_name) ?? row?.name ?? null,
                imo,
                voyage_number: text(s.pod_voyage_number),
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
          vessel,
        });
      }),
  );
}

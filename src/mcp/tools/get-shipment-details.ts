// get_shipment_details: one shipment with its ports, terminal and containers.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { customFieldsOf, customFieldsOutput, customFieldsSentence } from '../custom-fields.js';
import { kinds, renderWith } from '../render.js';
import { guarded, ok, READ_ONLY, resourceOutput } from '../results.js';

export function registerGetShipmentDetails(server: McpServer, { deps, account }: ToolContext) {
  const { shipment: kind } = kinds(deps);
  server.registerTool(
    'get_shipment_details',
    {
      title: 'Get a shipment',
      description:
        "A shipment: bill of lading, shipping line, ports of lading and discharge with ETD/ATD and ETA/ATA, vessel and voyage, destination, and its containers; `custom_fields` are the account's own fields set on the shipment (name and value as people read it).",
      inputSchema: {
        id: z.string().uuid().describe('The shipment id (from search_container or list_shipments)'),
        include_containers: z.boolean().optional().describe('Include the containers (default true)'),
      },
      outputSchema: { shipment: resourceOutput, included: z.array(resourceOutput), custom_fields: customFieldsOutput },
      annotations: READ_ONLY,
    },
    ({ id, include_containers }) =>
      guarded(
        `No shipment ${id} in this account — call search_container or list_shipments to find its id, or track_container to start tracking it.`,
        async () => {
          const shipment = await deps.shipments.get(account.id, id);
          const include = ['port_of_lading', 'port_of_discharge', 'pod_terminal', ...(include_containers === false ? [] : ['containers'])];
          const { data, included } = await renderWith(kind, [shipment], include);
          const a = data[0]!.attributes;
          const fields = (await customFieldsOf(deps, account.id, 'shipment', [shipment.id])).get(shipment.id) ?? [];
          return ok(
            `Shipment ${String(a.bill_of_lading_number ?? shipment.request_number ?? id)} (${String(a.shipping_line_scac ?? 'unknown line')}): ${String(a.port_of_lading_locode ?? '?')} → ${String(a.port_of_discharge_locode ?? '?')}.${customFieldsSentence(fields)}`,
            { shipment: data[0]!, included, custom_fields: fields },
          );
        },
      ),
  );
}

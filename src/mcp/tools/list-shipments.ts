// list_shipments: the account's shipments, newest first, filtered by the service (not limited to the REST filters).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CONTAINER_STATUSES } from '../../services/containers.js';
import type { ShipmentFilter } from '../../services/shipments.js';
import type { ToolContext } from '../context.js';
import { customFieldsOf, customFieldsOutput } from '../custom-fields.js';
import { kinds, renderWith } from '../render.js';
import { guarded, lowerList, ok, pageOf, pagingInput, pagingOf, pagingOutput, READ_ONLY, resourceOutput, upperList } from '../results.js';

const listOf = z.union([z.string(), z.array(z.string())]);

export function registerListShipments(server: McpServer, { deps, account }: ToolContext) {
  const { shipment: kind } = kinds(deps);
  server.registerTool(
    'list_shipments',
    {
      title: 'List shipments',
      description: `The account's shipments, newest first. Filters: status (a container status: ${CONTAINER_STATUSES.join(', ')}), port (UN/LOCODE of the port of lading, discharge or destination), carrier (SCAC), updated_after (ISO 8601), number (bill of lading or booking), tracking_stopped.`,
      inputSchema: {
        status: listOf.optional().describe('Shipments with a container in this status (or any of these)'),
        port: listOf.optional().describe('UN/LOCODE(s) of the port of lading, port of discharge or destination, e.g. USLAX'),
        carrier: listOf.optional().describe('Shipping line SCAC(s)'),
        updated_after: z.string().datetime({ offset: true }).optional().describe('Only shipments updated after this instant (ISO 8601)'),
        number: z.string().max(100).optional().describe('The bill of lading or booking number the shipment was tracked by'),
        tracking_stopped: z.boolean().optional().describe('true: only stopped shipments; false: only tracked ones'),
        include_containers: z.boolean().optional().describe("Include each shipment's containers (default false)"),
        ...pagingInput,
      },
      outputSchema: {
        items: z.array(resourceOutput),
        included: z.array(resourceOutput),
        meta: pagingOutput,
        custom_fields: z
          .record(z.string(), customFieldsOutput)
          .describe("The account's own custom fields of each item that has any, by the item's id"),
      },
      annotations: READ_ONLY,
    },
    (input) =>
      guarded('No shipments.', async () => {
        const page = pageOf(input);
        const filter: ShipmentFilter = {};
        const statuses = lowerList(input.status);
        if (statuses) filter.containerStatuses = statuses;
        const ports = upperList(input.port);
        if (ports) filter.ports = ports;
        const carriers = upperList(input.carrier);
        if (carriers) filter.carriers = carriers;
        if (input.updated_after) filter.updatedAfter = new Date(input.updated_after);
        if (input.number?.trim()) filter.number = input.number.trim();
        if (input.tracking_stopped !== undefined) filter.trackingStopped = input.tracking_stopped;
        const { items, total } = await deps.shipments.list(account.id, filter, page);
        const { data, included } = await renderWith(kind, items, input.include_containers ? ['containers'] : []);
        const meta = pagingOf(page, total);
        const fields = await customFieldsOf(
          deps,
          account.id,
          'shipment',
          items.map((i) => i.id),
        );
        return ok(`${total} shipment(s) match; page ${meta.page} of ${meta.total_pages} shows ${items.length}.`, {
          items: data,
          included,
          meta,
          custom_fields: Object.fromEntries([...fields].filter(([, f]) => f.length > 0)),
        });
      }),
  );
}

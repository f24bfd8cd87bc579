// search_container: containers, shipments and tracking requests matching a number or reference.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { isoSeconds } from '../../lib/dates.js';
import type { ToolContext } from '../context.js';
import { guarded, ok, READ_ONLY } from '../results.js';

const hit = z.object({
  id: z.string(),
  number: z.string(),
  shipment_id: z.string().nullable(),
  shipping_line: z.string().nullable(),
  status: z.string().nullable(),
  ref_numbers: z.array(z.string()),
  exact_match: z.boolean(),
});

export function registerSearchContainer(server: McpServer, { deps, account }: ToolContext) {
  server.registerTool(
    'search_container',
    {
      title: 'Search containers and shipments',
      description:
        'Finds containers, shipments and tracking requests in this account by container number, bill of lading, booking or reference number (partial matches allowed). Use the ids with get_container or get_shipment_details.',
      inputSchema: { query: z.string().min(1).max(200).describe('A container number, bill of lading, booking or reference number') },
      outputSchema: {
        containers: z.array(hit),
        shipments: z.array(
          hit.extend({
            container_count: z.number().nullable(),
            port_of_lading: z.string().nullable(),
            port_of_discharge: z.string().nullable(),
          }),
        ),
        tracking_requests: z.array(hit.extend({ failed_reason: z.string().nullable(), created_at: z.string().nullable() })),
        total_results: z.number(),
      },
      annotations: READ_ONLY,
    },
    ({ query }) =>
      guarded('Nothing found.', async () => {
        const hits = await deps.search.search(account.id, query);
        const base = (h: (typeof hits)[number]) => ({
          id: h.id,
          number: h.number,
          shipment_id: h.shipment_id,
          shipping_line: h.scac,
          status: h.status,
          ref_numbers: h.ref_numbers,
          exact_match: h.exact,
        });
        const data = {
          containers: hits.filter((h) => h.entity_type === 'cargo').map(base),
          shipments: hits
            .filter((h) => h.entity_type === 'shipment')
            .map((h) => ({
              ...base(h),
              container_count: h.containers_count,
              port_of_lading: h.port_of_lading_name,
              port_of_discharge: h.port_of_discharge_name,
            })),
          tracking_requests: hits
            .filter((h) => h.entity_type === 'tracking_request')
            .map((h) => ({ ...base(h), failed_reason: h.failed_reason, created_at: isoSeconds(h.created_at) })),
          total_results: hits.length,
        };
        const summary = hits.length
          ? `Found ${data.containers.length} container(s), ${data.shipments.length} shipment(s) and ${data.tracking_requests.length} tracking request(s) for "${query}".`
          : `Nothing in this account matches "${query}". To start tracking it, call track_container.`;
        return ok(summary, data);
      }),
  );
}

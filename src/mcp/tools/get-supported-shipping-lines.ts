// get_supported_shipping_lines: the carriers this account can track, optionally searched.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { ok, READ_ONLY } from '../results.js';

export function registerGetSupportedShippingLines(server: McpServer, { deps, account }: ToolContext) {
  server.registerTool(
    'get_supported_shipping_lines',
    {
      title: 'Supported shipping lines',
      description:
        'The shipping lines this account can track, with their SCAC codes and what each can be tracked by. `search` matches name, short name or SCAC.',
      inputSchema: { search: z.string().max(100).optional().describe('Part of a name, short name or SCAC') },
      outputSchema: {
        total_lines: z.number(),
        shipping_lines: z.array(
          z.object({
            scac: z.string(),
            name: z.string(),
            short_name: z.string(),
            alternative_scacs: z.array(z.string()),
            bol_prefixes: z.array(z.string()),
            tracks_by: z.array(z.enum(['bill_of_lading', 'booking_number', 'container'])),
          }),
        ),
      },
      annotations: READ_ONLY,
    },
    async ({ search }) => {
      const lines = deps.shippingLines.list(account, search);
      const data = {
        total_lines: lines.length,
        shipping_lines: lines.map((l) => ({
          scac: l.scac,
          name: l.name,
          short_name: l.shortName,
          alternative_scacs: [...l.alternativeScacs],
          bol_prefixes: [...l.bolPrefixes],
          tracks_by: [
            ...(l.trackByBillOfLading ? (['bill_of_lading'] as const) : []),
            ...(l.trackByBooking ? (['booking_number'] as const) : []),
            ...(l.trackByContainer ? (['container'] as const) : []),
          ],
        })),
      };
      const summary = lines.length
        ? `${lines.length} shipping line(s)${search ? ` matching "${search}"` : ''}.`
        : `No shipping line matches "${search}". Call get_supported_shipping_lines without search to see them all.`;
      return ok(summary, data);
    },
  );
}

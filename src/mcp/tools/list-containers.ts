// list_containers: the account's containers, newest first, filtered by the service.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CONTAINER_STATUSES, type ContainerFilter } from '../../services/containers.js';
import type { ToolContext } from '../context.js';
import { customFieldsOf, customFieldsOutput } from '../custom-fields.js';
import { kinds, renderWith } from '../render.js';
import { guarded, lowerList, ok, pageOf, pagingInput, pagingOf, pagingOutput, READ_ONLY, resourceOutput, upperList } from '../results.js';
import { CONTAINER_INCLUDES } from './get-container.js';

const listOf = z.union([z.string(), z.array(z.string())]);

export function registerListContainers(server: McpServer, { deps, account }: ToolContext) {
  const { container: kind } = kinds(deps);
  server.registerTool(
    'list_containers',
    {
      title: 'List containers',
      description: `The account's containers, newest first. Filters: status (${CONTAINER_STATUSES.join(', ')}), port (UN/LOCODE of the shipment's port of lading, discharge or destination), carrier (SCAC), updated_after (ISO 8601).`,
      inputSchema: {
        status: listOf.optional().describe('Container status(es)'),
        port: listOf.optional().describe("UN/LOCODE(s) of the shipment's port of lading, port of discharge or destination"),
        carrier: listOf.optional().describe('Shipping line SCAC(s)'),
        updated_after: z.string().datetime({ offset: true }).optional().describe('Only containers updated after this instant (ISO 8601)'),
        include: z
          .union([z.string(), z.array(z.enum(CONTAINER_INCLUDES))])
          .optional()
          .describe(`Related data to add: ${CONTAINER_INCLUDES.join(', ')} (array or comma-separated)`),
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
      guarded('No containers.', async () => {
        const page = pageOf(input);
        const filter: ContainerFilter = {};
        const statuses = lowerList(input.status);
        if (statuses) filter.statuses = statuses;
        const ports = upperList(input.port);
        if (ports) filter.ports = ports;
        const carriers = upperList(input.carrier);
        if (carriers) filter.carriers = carriers;
        if (input.updated_after) filter.updatedAfter = new Date(input.updated_after);
        const include = lowerList(input.include) ?? [];
        const { items, total } = await deps.containers.list(account.id, filter, page);
        const { data, included } = await renderWith(kind, items, include);
        const meta = pagingOf(page, total);
        const fields = await customFieldsOf(
          deps,
          account.id,
          'container',
          items.map((i) => i.id),
        );
        return ok(`${total} container(s) match; page ${meta.page} of ${meta.total_pages} shows ${items.length}.`, {
          items: data,
          included,
          meta,
          custom_fields: Object.fromEntries([...fields].filter(([, f]) => f.length > 0)),
        });
      }),
  );
}

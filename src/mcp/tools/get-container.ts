// get_container: one container with its shipment, terminal and (optionally) transport events.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { kinds, renderWith } from '../render.js';
import { guarded, ok, READ_ONLY, resourceOutput } from '../results.js';

export const CONTAINER_INCLUDES = ['shipment', 'pod_terminal', 'transport_events'] as const;

export function notTracked(id: string): string {
  return `No container ${id} in this account — call search_container to find its id, or track_container first to start tracking it.`;
}

export function registerGetContainer(server: McpServer, { deps, account }: ToolContext) {
  const { container: kind } = kinds(deps);
  server.registerTool(
    'get_container',
    {
      title: 'Get a container',
      description:
        'A container: status, holds, fees, last free days, availability, terminal, with its shipment (ports, ETA/ATA, vessel). `include` adds the POD terminal and the transport events.',
      inputSchema: {
        id: z.string().uuid().describe('The container id (from search_container or list_containers)'),
        include: z.array(z.enum(CONTAINER_INCLUDES)).optional().describe('Related data to add (default ["shipment"])'),
      },
      outputSchema: { container: resourceOutput, included: z.array(resourceOutput) },
      annotations: READ_ONLY,
    },
    ({ id, include }) =>
      guarded(notTracked(id), async () => {
        const container = await deps.containers.get(account.id, id);
        const { data, included } = await renderWith(kind, [container], [...new Set(include ?? ['shipment'])]);
        const attrs = data[0]!.attributes;
        return ok(`Container ${container.number}: status ${String(attrs.current_status)}.`, { container: data[0]!, included });
      }),
  );
}

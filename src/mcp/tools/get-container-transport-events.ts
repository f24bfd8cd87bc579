// get_container_transport_events: a container's transport events in the API's order (newest first).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { kinds, renderWith } from '../render.js';
import { guarded, ok, READ_ONLY, resourceOutput } from '../results.js';
import { notTracked } from './get-container.js';

/** More than any container's journey has. */
const MAX_EVENTS = 500;

export function registerGetContainerTransportEvents(server: McpServer, { deps, account }: ToolContext) {
  const { transportEvent: kind } = kinds(deps);
  server.registerTool(
    'get_container_transport_events',
    {
      title: "A container's transport events",
      description:
        "The container's milestones (gate out, loaded, departed, arrived, discharged, available, picked up, empty returned…) and last free day or appointment changes, newest first by when they happened (changes by when they were seen, observed_at), with their times and locations.",
      inputSchema: { id: z.string().uuid().describe('The container id') },
      outputSchema: { container_id: z.string(), container_number: z.string(), total: z.number(), events: z.array(resourceOutput) },
      annotations: READ_ONLY,
    },
    ({ id }) =>
      guarded(notTracked(id), async () => {
        const container = await deps.containers.get(account.id, id);
        const { items, total } = await deps.containers.transportEvents(account.id, id, { limit: MAX_EVENTS, offset: 0 });
        const { data } = await renderWith(kind, items, []);
        const latest = data[0]?.attributes.event;
        return ok(`${total} transport event(s) for container ${container.number}${latest ? `; the latest is ${String(latest)}` : ''}.`, {
          container_id: container.id,
          container_number: container.number,
          total,
          events: data,
        });
      }),
  );
}

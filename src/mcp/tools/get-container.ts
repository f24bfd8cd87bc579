// get_container: one container with its shipment, terminal and (optionally) transport events.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { lastFreeDay, lastFreeDayOutput } from '../lfd.js';
import { customFieldsOf, customFieldsOutput, customFieldsSentence } from '../custom-fields.js';
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
        "A container: status, holds, fees, last free days, availability, terminal, with its shipment (ports, ETA/ATA, vessel). `include` adds the POD terminal and the transport events. `last_free_day` says where the binding last free day (`pickup_lfd_binding`: the earliest that applies where the box is picked up, whose date it is in `pickup_lfd_binding_party`) stands at Tidemark's world time: days left in the place's calendar, or once picked up how the pickup fell against it. `pickup_lfd` is the reference's field: the line's last free day if given, else the terminal's, else the rail's — the first available, not the earliest, so not the date to act on. `custom_fields` are the account's own fields set on the container (name and value as people read it).",
      inputSchema: {
        id: z.string().uuid().describe('The container id (from search_container or list_containers)'),
        include: z.array(z.enum(CONTAINER_INCLUDES)).optional().describe('Related data to add (default ["shipment"])'),
      },
      outputSchema: {
        container: resourceOutput,
        included: z.array(resourceOutput),
        last_free_day: lastFreeDayOutput,
        custom_fields: customFieldsOutput,
      },
      annotations: READ_ONLY,
    },
    ({ id, include }) =>
      guarded(notTracked(id), async () => {
        const container = await deps.containers.get(account.id, id);
        const { data, included } = await renderWith(kind, [container], [...new Set(include ?? ['shipment'])]);
        const attrs = data[0]!.attributes;
        const lfd = lastFreeDay(attrs, deps.clocks.world.now());
        const fields = (await customFieldsOf(deps, account.id, 'container', [container.id])).get(container.id) ?? [];
        return ok(`Container ${container.number}: status ${String(attrs.current_status)}. ${lfd.summary}${customFieldsSentence(fields)}`, {
          container: data[0]!,
          included,
          last_free_day: lfd,
          custom_fields: fields,
        });
      }),
  );
}

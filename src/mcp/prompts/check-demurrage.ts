// check-demurrage prompt: how to judge a container's demurrage risk from its holds, availability, last free days and fees.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';

export const containerIdArg = z.string().uuid().describe('The container id (from search_container or list_containers)');

export function registerCheckDemurrage(server: McpServer, _ctx: ToolContext) {
  server.registerPrompt(
    'check-demurrage',
    {
      title: 'Check demurrage risk',
      description: "Assess a container's demurrage risk: holds, availability, last free days by source and terminal fees.",
      argsSchema: { container_id: containerIdArg },
    },
    ({ container_id }) => ({
      description: `Demurrage risk of container ${container_id}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Assess the demurrage risk of the container with id ${container_id} in Tidemark.`,
              '',
              `1. Call get_container with id "${container_id}" and include ["shipment", "pod_terminal"] (the same data is the resource tidemark://container/${container_id}).`,
              '2. From the container attributes, look at:',
              '   - current_status, and whether it is already picked up (pod_full_out_at) or delivered (delivered_at): then there is no demurrage risk left at the terminal.',
              '   - holds_at_pod_terminal: each hold has a name (freight, customs, USDA, VACIS, TMF, other) and a status (hold or pending). Any hold blocks pickup.',
              '   - available_for_pickup and ready_for_pickup: whether the terminal lets the container go now.',
              '   - pickup_lfd: the last free day that applies, and import_deadlines, the last free day by source: pickup_lfd_line (shipping line), pickup_lfd_terminal (terminal) and pickup_lfd_rail (railroad, for inland moves). Say which source each date comes from and point out when they disagree.',
              '   - pickup_appointment_at: whether a pickup is booked, and whether it is before pickup_lfd.',
              "   - fees_at_pod_terminal: each fee has a type (demurrage, exam, extended_dwell_time, other, total), an amount and a currency_code. A `total` line is the terminal's own sum: report it as the total, and never add it to the other lines.",
              "3. Use the shipment (pod_ata_at, pod_timezone) to state dates in the port's local time as well as UTC, and count the days left until pickup_lfd.",
              '4. If needed, call get_container_transport_events with the same id for container.pickup_lfd*.changed, container.transport.available / not_available and vessel_discharged events.',
              '',
              'Conclude with the risk (none, low, high, already incurring fees) and the next action (clear a hold, book an appointment, pick up before a date). Use only what the tools return; if a value is null, say it is unknown rather than guessing.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}

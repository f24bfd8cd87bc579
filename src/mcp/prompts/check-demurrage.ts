// check-demurrage prompt: how to judge a container's demurrage risk from its holds, availability, the binding last free
// day (not the reference's coalesced pickup_lfd) with the days left Tidemark counts at its world time, and the fees.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';

export const containerIdArg = z.string().uuid().describe('The container id (from search_container or list_containers)');

export function registerCheckDemurrage(server: McpServer, _ctx: ToolContext) {
  server.registerPrompt(
    'check-demurrage',
    {
      title: 'Check demurrage risk',
      description:
        "Assess a container's demurrage risk: holds, availability, the binding last free day (pickup_lfd_binding) with the days left at Tidemark's world time, the other last free days by source and terminal fees.",
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
              `1. Call get_container with id "${container_id}" and include ["shipment", "pod_terminal"] (the container alone is also the resource tidemark://container/${container_id}, without last_free_day).`,
              '2. From the container attributes, look at:',
              '   - current_status: picked_up, delivered, empty_returned, dropped and loaded mean the box has left its pickup place (pod_full_out_at, or final_destination_full_out_at for an inland rail move): no demurrage risk is left there and no days are counted any more. off_dock is not one of them: the box waits at an off-dock yard and is picked up from there.',
              '   - holds_at_pod_terminal (and ind_facility_holds, the inland ramp\'s, for a rail move): each hold has a name (freight, customs, USDA, VACIS, TMF, other) and a status (hold or pending). The holds that block pickup are those of the pickup place with status hold: the POD terminal\'s until a rail move is at its inland ramp, then the ramp\'s. A pending hold is under review and does not block yet: say so, as a risk.',
              '   - available_for_pickup and ready_for_pickup: whether the box can go now.',
              "   - pickup_lfd_binding: the last free day to act on — the earliest of the last free days that apply where the box is picked up (POD terminal: the line's and the terminal's; off-dock yard: the terminal's and the line's; inland rail: the railroad's and the line's), compared as local dates. pickup_lfd_binding_party says whose date it is (line, terminal or rail) and pickup_lfd_binding_timezone the calendar it is a local midnight in. Name that party when you give the date.",
              "   - import_deadlines, the last free day by source: pickup_lfd_line (shipping line), pickup_lfd_terminal (terminal) and pickup_lfd_rail (railroad, for inland moves). Give the others' dates beside the binding one and point out when they disagree.",
              "   - pickup_lfd is the reference API's field: the line's last free day if given, else the terminal's, else the rail's — the first available, not the earliest. It can be days later than pickup_lfd_binding (a terminal whose free time ends before the line's): never judge the risk by it.",
              '   - pickup_appointment_at: whether a pickup is booked, and whether it falls on or before the local date of pickup_lfd_binding.',
              "   - fees_at_pod_terminal: each fee has a type (demurrage, exam, extended_dwell_time, other, total), an amount and a currency_code. A `total` line is the terminal's own sum: report it as the total, and never add it to the other lines.",
              "3. Days left: take them from get_container's last_free_day, which Tidemark counts at its world time (the sandbox's clock when the sandbox is on, which may differ from today's date) in the calendar of pickup_lfd_binding_timezone: state counting with days_left (0 = today, negative = passed), or picked_up with picked_up_days_before_lfd (how the pickup fell against the date: negative = after it). Do not count days yourself, and never count days left after pickup. Use the shipment (pod_ata_at, pod_timezone) to state other dates in the port's local time as well as UTC.",
              '4. If needed, call get_container_transport_events with the same id for container.pickup_lfd*.changed, container.transport.available / not_available and vessel_discharged events.',
              '',
              'Conclude with the risk (none, low, high, already incurring fees) judged by pickup_lfd_binding, and the next action (clear a hold, book an appointment, pick up before the binding date, naming whose it is). Use only what the tools return; if a value is null, say it is unknown rather than guessing.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}

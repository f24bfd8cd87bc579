// analyze-delays prompt: how to explain a container's delay from its ETA history, transshipments and events.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../context.js';
import { containerIdArg } from './check-demurrage.js';

export function registerAnalyzeDelays(server: McpServer, _ctx: ToolContext) {
  server.registerPrompt(
    'analyze-delays',
    {
      title: 'Analyze delays',
      description: 'Explain whether and why a container is late: current vs original ETA, the ETA history, transshipments and events.',
      argsSchema: { container_id: containerIdArg },
    },
    ({ container_id }) => ({
      description: `Delay analysis of container ${container_id}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Analyze the delays of the container with id ${container_id} in Tidemark.`,
              '',
              `1. Call get_container with id "${container_id}" (its shipment is included) and note the shipment id and current_status.`,
              '2. From the shipment, compare pod_eta_at (the current ETA at the port of discharge) with pod_original_eta_at (the first ETA Tidemark saw): the difference is the delay so far. Once arrived, compare pod_ata_at with pod_original_eta_at. Also look at pol_etd_at / pol_atd_at for a late departure and at destination_eta_at for inland moves.',
              '3. For the ETA history, call get_shipment_details with the shipment id; the full history of arrival estimates (each shipment.estimated.arrival with estimated_timestamp and when Tidemark learnt it) is served by GET /v2/shipments/{shipment id}/estimated_events. Say when the ETA moved and by how much.',
              `4. Call get_container_transport_events with id "${container_id}": look for transshipment_* and feeder_* events (transshipment ports, time spent there, vessel changes), rail events, and estimated events (container.transport.estimated.*) against actual ones.`,
              `5. If the account has routing, call get_container_route with id "${container_id}" for the stops and the vessel's last position.`,
              '',
              'Explain the delay in days, where it arose (departure, transshipment, arrival, inland) and what is expected next. Use only what the tools return; if a value is missing, say it is unknown rather than guessing.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}

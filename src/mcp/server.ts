// The MCP server of one request: stateless, so each authenticated request gets its own server holding the
// caller's account, with every tool, prompt and resource registered.
import { McpServer, type ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from './context.js';
import { PROMPTS } from './prompts/index.js';
import { RESOURCES } from './resources/index.js';
import { TRACKING_DATA_TOOLS, trialRefusal } from './api-trial.js';
import { failureOf, refusedArguments, toolError } from './results.js';
import { registerGetContainer } from './tools/get-container.js';
import { registerGetContainerRoute } from './tools/get-container-route.js';
import { registerGetContainerTransportEvents } from './tools/get-container-transport-events.js';
import { registerGetShipmentDetails } from './tools/get-shipment-details.js';
import { registerGetSupportedShippingLines } from './tools/get-supported-shipping-lines.js';
import { registerListContainers } from './tools/list-containers.js';
import { registerListShipments } from './tools/list-shipments.js';
import { registerListTrackingRequests } from './tools/list-tracking-requests.js';
import { registerSearchContainer } from './tools/search-container.js';
import { registerTrackContainer } from './tools/track-container.js';

export type { McpDeps, ToolContext } from './context.js';

export const SERVER_INFO = { name: 'tidemark', version: '1.0.0' } as const;

const INSTRUCTIONS = `Tidemark tracks ocean containers and shipments for this account.
Find things with search_container (any number) or list_containers / list_shipments; read details with get_container,
get_shipment_details, get_container_transport_events and get_container_route. To start tracking a new number call
track_container: it returns the container when it is already tracked, else a pending tracking request (check it later
with list_tracking_requests). Prompts track-shipment, check-demurrage and analyze-delays guide common tasks; the
resource tidemark://container/{id} is a container as JSON and tidemark://docs/milestone-glossary explains the
transport events. The last free day to act on is pickup_lfd_binding (whose: pickup_lfd_binding_party); pickup_lfd is
the first given of the line's, terminal's and rail's dates, not the earliest. get_container's last_free_day gives the days
left at Tidemark's world time (the sandbox clock while the sandbox is on): do not count them from your own date.
Times are ISO 8601 UTC; ports are UN/LOCODEs; carriers are SCACs.`;

const TOOLS = [
  registerSearchContainer,
  registerTrackContainer,
  registerGetContainer,
  registerGetShipmentDetails,
  registerGetContainerTransportEvents,
  registerGetSupportedShippingLines,
  registerGetContainerRoute,
  registerListShipments,
  registerListContainers,
  registerListTrackingRequests,
];

/** Stateless: no stream outlives a request, so no `list_changed` notification can ever be sent. */
const CAPABILITIES = {
  tools: { listChanged: false },
  prompts: { listChanged: false },
  resources: { listChanged: false },
  completions: {},
};

/**
 * Every tool registered on `server` runs behind the same edge as the REST API: arguments with text that cannot be
 * stored are a tool error naming them, before the tool runs; the tools that read tracking data need API read access
 * (the API trial of a free account), checked when they are called; and nothing a tool throws reaches the client as it is
 * (the SDK would answer an exception's message, e.g. PostgreSQL's error text): failureOf decides what is said.
 */
function guardTools(server: McpServer, ctx: ToolContext): void {
  const register = server.registerTool.bind(server) as (name: string, config: { inputSchema?: unknown }, cb: ToolCallback) => unknown;
  const guarded =
    (name: string, withInput: boolean, callback: (...a: unknown[]) => unknown) =>
    async (...a: unknown[]) => {
      const refused = withInput ? refusedArguments(a[0]) : null;
      if (refused) return refused;
      // A free account without a running API trial reads no tracking data (mcp/api-trial.ts).
      const gated = TRACKING_DATA_TOOLS.has(name) ? trialRefusal(ctx) : null;
      if (gated) return toolError(gated);
      try {
        return await callback(...a);
      } catch (err) {
        return failureOf(err, name, ctx);
      }
    };
  server.registerTool = ((name: string, config: { inputSchema?: unknown }, callback: (...a: unknown[]) => unknown) =>
    register(name, config, guarded(name, config.inputSchema !== undefined, callback) as ToolCallback)) as typeof server.registerTool;
}

export function createMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS });
  guardTools(server, ctx);
  for (const register of [...TOOLS, ...PROMPTS, ...RESOURCES]) register(server, ctx);
  // The SDK turns listChanged on when the first tool, prompt or resource is registered: announce what we do.
  server.server.registerCapabilities(CAPABILITIES);
  return server;
}

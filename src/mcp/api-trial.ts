// The API trial on MCP (docs/api.md "Plans and the API trial"): the tools that read tracking data answer a free
// account without a running trial with a tool error, in the same sentence as the REST API's 403, and the container
// resource with an error; track_container and the tools that read tracking requests or reference data keep working.
// MCP is reached by API key or OAuth token, never by the web app's session, so every caller is subject to it.
import { refusalSentence } from '../domain/api-trial.js';
import type { ToolContext } from './context.js';

/** The tools whose answers are tracking data (shipments, containers, their events and routes, search results). */
export const TRACKING_DATA_TOOLS: ReadonlySet<string> = new Set([
  'search_container',
  'get_container',
  'get_shipment_details',
  'get_container_transport_events',
  'get_container_route',
  'list_shipments',
  'list_containers',
]);

/** The sentence refusing tracking data to this caller now, or null when it may read. */
export function trialRefusal(ctx: Pick<ToolContext, 'deps' | 'account'>): string | null {
  const access = ctx.deps.apiTrial.access(ctx.account);
  return access.allowed ? null : refusalSentence(access);
}

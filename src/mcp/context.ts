// What every MCP tool is given: the services (the same ones the REST API calls) and the caller's account.
import type { Account } from '../domain/account.js';
import type { HttpDeps, McpRequest } from '../http/context.js';

/** The services the tools call; `clocks.world` is the world time their results count last free days at. */
export type McpDeps = Pick<
  HttpDeps,
  | 'clocks'
  | 'config'
  | 'accounts'
  | 'parties'
  | 'partyRoles'
  | 'shipments'
  | 'containers'
  | 'shippingLines'
  | 'places'
  | 'vessels'
  | 'numberInference'
  | 'trackingRequests'
  | 'search'
  | 'notifications'
  | 'webhooks'
  | 'rateLimits'
>;

export interface ToolContext {
  deps: McpDeps;
  /** The account the request authenticated as; every tool reads and writes only its data. */
  account: Account;
  /** The request being answered (absent in-process): a tool's unexpected failure is logged with its id. */
  request?: McpRequest;
}

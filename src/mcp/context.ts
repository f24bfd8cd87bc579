// What every MCP tool is given: the services (the same ones the REST API calls) and the caller's account.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/index.js';
import type { Account } from '../domain/account.js';
import type { Clocks } from '../domain/clock.js';
import type { AccountService } from '../services/accounts.js';
import type { ContainerService } from '../services/containers.js';
import type { NotificationService } from '../services/notifications.js';
import type { NumberInferenceService } from '../services/number-inference.js';
import type { PartyService } from '../services/parties.js';
import type { PartyRoleService } from '../services/party-roles.js';
import type { PlaceService } from '../services/places.js';
import type { RateLimitService } from '../services/rate-limits.js';
import type { SearchService } from '../services/search.js';
import type { ShipmentService } from '../services/shipments.js';
import type { ShippingLineService } from '../services/shipping-lines.js';
import type { TrackingRequestService } from '../services/tracking-requests.js';
import type { VesselService } from '../services/vessels.js';
import type { WebhookService } from '../services/webhooks.js';

/** The services the tools call; `clocks.world` is the world time their results count last free days at. */
export interface McpDeps {
  clocks: Clocks;
  config: Config;
  accounts: AccountService;
  parties: PartyService;
  partyRoles: PartyRoleService;
  shipments: ShipmentService;
  containers: ContainerService;
  shippingLines: ShippingLineService;
  places: PlaceService;
  vessels: VesselService;
  numberInference: NumberInferenceService;
  trackingRequests: TrackingRequestService;
  search: SearchService;
  notifications: NotificationService;
  webhooks: WebhookService;
  rateLimits: RateLimitService;
}

/** The HTTP request an MCP server answers: its id goes in tool errors, its logger records what failed inside a tool. */
export interface McpRequest {
  id: string;
  log: FastifyBaseLogger;
}

export interface ToolContext {
  deps: McpDeps;
  /** The account the request authenticated as; every tool reads and writes only its data. */
  account: Account;
  /** The request being answered (absent in-process): a tool's unexpected failure is logged with its id. */
  request?: McpRequest;
}

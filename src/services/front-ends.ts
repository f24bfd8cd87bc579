// The services the front ends call by name — the /v2 routes and the MCP tools alike — declared once: the MCP tools
// take exactly these, the HTTP layer these and what only it needs (sessions, OAuth, the document cache …).
import type { Config } from '../config/index.js';
import type { Clocks } from '../domain/clock.js';
import type { AccountService } from './accounts.js';
import type { ApiTrialService } from './api-trial.js';
import type { ContainerService } from './containers.js';
import type { CustomFieldService } from './custom-fields.js';
import type { NotificationService } from './notifications.js';
import type { NumberInferenceService } from './number-inference.js';
import type { PartyService } from './parties.js';
import type { PartyRoleService } from './party-roles.js';
import type { PlaceService } from './places.js';
import type { RateLimitService } from './rate-limits.js';
import type { SearchService } from './search.js';
import type { ShipmentService } from './shipments.js';
import type { ShippingLineService } from './shipping-lines.js';
import type { TrackingRequestService } from './tracking-requests.js';
import type { VesselService } from './vessels.js';
import type { WebhookService } from './webhooks.js';

export interface FrontEndServices {
  config: Config;
  /** `clocks.world` is the time last free days, holds and ETAs are counted at. */
  clocks: Clocks;
  accounts: AccountService;
  /** Plans and the API trial: whether an account may read tracking data through the API, and the operator's changes. */
  apiTrial: ApiTrialService;
  parties: PartyService;
  partyRoles: PartyRoleService;
  /** Custom-field definitions, options and values on shipments, containers and tracking requests. */
  customFields: CustomFieldService;
  shipments: ShipmentService;
  containers: ContainerService;
  shippingLines: ShippingLineService;
  /** Ports, metro areas and terminals (reference data, global). */
  places: PlaceService;
  /** Vessels and the AIS positions gathered for them (global). */
  vessels: VesselService;
  numberInference: NumberInferenceService;
  trackingRequests: TrackingRequestService;
  search: SearchService;
  /** Webhook notifications and their delivery attempts (read side). */
  notifications: NotificationService;
  /** Webhooks: management, secrets, trigger, redelivery and replay. */
  webhooks: WebhookService;
  rateLimits: RateLimitService;
}

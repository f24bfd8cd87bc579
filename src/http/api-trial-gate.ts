// The API trial's gate on /v2 (docs/api.md "Plans and the API trial"): a free account without a running trial may
// not READ tracking data with an API key. Which routes that is, is this one table; the app's onRoute hook marks them
// (`config.trackingData`) and documents their 403, the onRequest hook refuses them after authentication. The web
// app's session is never gated. MCP has its own side (mcp/api-trial.ts) with the same sentence.
import type { FastifyRequest, RouteOptions } from 'fastify';
import { API_TRIAL_REQUIRED, type ApiAccess, refusalSentence } from '../domain/api-trial.js';
import { TidemarkError } from '../domain/errors.js';
import type { HttpDeps } from './context.js';
import { errorResponses } from './schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads an account's tracking data: a free account's API key needs a running API trial. */
    trackingData?: boolean;
  }
  interface FastifyRequest {
    /** Set for requests authenticated by an API key (never for the web app's session): whether reads are allowed. */
    apiAccess: ApiAccess | null;
  }
}

/**
 * The routes that read tracking data: the shipments and containers resources whatever the method (their answers are
 * shipments and containers: events, raw events, the map, the board, estimated events; stop, resume, refresh and
 * edits included, the edit with the id in the body too), search, and webhook notifications (their bodies are tracking
 * data; a notification sent again answers with it). Every other /v2 route is in OPEN_ROUTES, with the reason it is
 * open: a route in neither table fails test/e2e/api-trial.test.ts, so whoever adds one decides which it is. HEAD is
 * the GET without its body: the tables name the GET.
 */
export const TRACKING_DATA_ROUTES: readonly string[] = [
  'GET /v2/shipments',
  'GET /v2/shipments/:id',
  'PATCH /v2/shipments/:id',
  'GET /v2/shipments/:id/estimated_events',
  'PATCH /v2/shipments/:id/stop_tracking',
  'PATCH /v2/shipments/:id/resume_tracking',
  'GET /v2/containers',
  'GET /v2/containers/board',
  'GET /v2/containers/:id',
  'PATCH /v2/containers/:id',
  'PATCH /v2/containers',
  'GET /v2/containers/:id/transport_events',
  'GET /v2/containers/:id/raw_events',
  'GET /v2/containers/:id/map_geojson',
  'PATCH /v2/containers/:id/refresh',
  'GET /v2/search',
  'GET /v2/webhook_notifications',
  'GET /v2/webhook_notifications/:id',
  'POST /v2/webhook_notifications/:id/redeliver',
];

const GATED = new Set(TRACKING_DATA_ROUTES);

/** The /v2 routes an API key of a gated account may call, by group, each with the reason it is open. */
export const OPEN_ROUTES: readonly { why: string; routes: readonly string[] }[] = [
  { why: 'the API description: no account data', routes: ['GET /v2/openapi.json'] },
  {
    why: 'reference data: carriers, places and vessels, the same for every account',
    routes: [
      'GET /v2/shipping_lines',
      'GET /v2/shipping_lines/:id',
      'GET /v2/ports/:id',
      'GET /v2/metro_areas/:id',
      'GET /v2/terminals/:id',
      'GET /v2/vessels/:id',
      'GET /v2/vessels/:id/future_positions',
      'GET /v2/vessels/:id/future_positions_with_coordinates',
    ],
  },
  {
    why: "parties and their roles: the account's own address book",
    routes: [
      'POST /v2/parties',
      'GET /v2/parties',
      'GET /v2/parties/:id',
      'PATCH /v2/parties/:id',
      'POST /v2/party_roles',
      'GET /v2/party_roles/:id',
      'DELETE /v2/party_roles/:id',
    ],
  },
  {
    why: "custom fields: the account's own definitions and values, not tracking data (also on a shipment or container)",
    routes: [
      'GET /v2/custom_field_definitions',
      'POST /v2/custom_field_definitions',
      'GET /v2/custom_field_definitions/:id',
      'PATCH /v2/custom_field_definitions/:id',
      'DELETE /v2/custom_field_definitions/:id',
      'GET /v2/custom_field_definitions/:definition_id/options',
      'POST /v2/custom_field_definitions/:definition_id/options',
      'GET /v2/custom_field_definitions/:definition_id/options/:option_id',
      'PATCH /v2/custom_field_definitions/:definition_id/options/:option_id',
      'DELETE /v2/custom_field_definitions/:definition_id/options/:option_id',
      'GET /v2/custom_fields',
      'POST /v2/custom_fields',
      'GET /v2/custom_fields/:id',
      'PATCH /v2/custom_fields/:id',
      'DELETE /v2/custom_fields/:id',
      'GET /v2/shipments/:shipment_id/custom_fields',
      'GET /v2/containers/:container_id/custom_fields',
      'GET /v2/tracking_requests/:tracking_request_id/custom_fields',
      'POST /v2/shipments/:shipment_id/custom_fields',
      'POST /v2/containers/:container_id/custom_fields',
      'POST /v2/tracking_requests/:tracking_request_id/custom_fields',
      'PATCH /v2/shipments/:shipment_id/custom_fields/:api_slug',
      'PATCH /v2/containers/:container_id/custom_fields/:api_slug',
      'PATCH /v2/tracking_requests/:tracking_request_id/custom_fields/:api_slug',
      'DELETE /v2/shipments/:shipment_id/custom_fields/:api_slug',
      'DELETE /v2/containers/:container_id/custom_fields/:api_slug',
      'DELETE /v2/tracking_requests/:tracking_request_id/custom_fields/:api_slug',
    ],
  },
  {
    why: 'tracking requests: a free account tracks at once; their tracked_object is withheld while gated (withheldInclude)',
    routes: [
      'POST /v2/tracking_requests/infer_number',
      'POST /v2/tracking_requests',
      'GET /v2/tracking_requests',
      'GET /v2/tracking_requests/:id',
      'PATCH /v2/tracking_requests/:id',
    ],
  },
  {
    why: 'webhooks, by design: their deliveries carry shipments and containers whatever the plan, so managing them, replay and trigger stay open',
    routes: [
      'POST /v2/webhooks',
      'GET /v2/webhooks',
      'GET /v2/webhooks/events',
      'GET /v2/webhooks/ips',
      'GET /v2/webhooks/:id',
      'PATCH /v2/webhooks/:id',
      'DELETE /v2/webhooks/:id',
      'POST /v2/webhooks/:id/rotate_secret',
      'POST /v2/webhooks/:id/replay',
      'POST /v2/webhooks/trigger',
    ],
  },
  {
    why: "webhook notification examples: made-up documents to build a receiver with, none of the account's data",
    routes: ['GET /v2/webhook_notifications/examples'],
  },
  {
    why: 'the account itself and its API keys',
    routes: ['GET /v2/account', 'GET /v2/api_keys', 'POST /v2/api_keys', 'DELETE /v2/api_keys/:id'],
  },
];

/** How the gate classifies a /v2 route (HEAD as its GET): gated, open (the reason), or not classified (undefined). */
export function routeClass(method: string, url: string): 'gated' | { open: string } | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  if (GATED.has(key)) return 'gated';
  const group = OPEN_ROUTES.find((g) => g.routes.includes(key));
  return group ? { open: group.why } : undefined;
}

/** onRoute: marks a tracking-data route and documents its 403 (the OpenAPI document lists every status it answers). */
export function markTrackingDataRoute(route: RouteOptions): void {
  // HEAD is the GET without its body: the same route for the gate.
  const gated = [route.method].flat().some((m) => routeClass(m, route.url) === 'gated');
  if (!gated) return;
  route.config = { ...(route.config as object), trackingData: true } as typeof route.config;
  const schema = route.schema as { response?: Record<string, unknown> } | undefined;
  if (schema?.response && !('403' in schema.response) && !(403 in schema.response)) {
    schema.response = { ...schema.response, ...errorResponses(403) };
  }
}

/**
 * onRequest, after an account authenticated: records whether an API key may read tracking data, and refuses a
 * tracking-data route when it may not (403 `api_trial_required`, the same sentence as MCP's tool error).
 */
export function enforceApiTrial(req: FastifyRequest, deps: Pick<HttpDeps, 'apiTrial'>): void {
  if (!req.account || req.user) return;
  const access = deps.apiTrial.access(req.account);
  req.apiAccess = access;
  if (access.allowed || !req.routeOptions.config.trackingData) return;
  throw trialRequired(access);
}

export function trialRequired(access: Extract<ApiAccess, { allowed: false }>): TidemarkError {
  const detail = refusalSentence(access);
  return new TidemarkError('forbidden', detail, {
    items: [
      {
        title: 'API access not enabled',
        detail,
        code: API_TRIAL_REQUIRED,
        meta: { trial_ends_at: access.trialEndsAt ? access.trialEndsAt.toISOString().replace(/\.\d{3}Z$/, 'Z') : null },
      },
    ],
  });
}

/**
 * A tracking request's include while the caller may not read tracking data: `tracked_object` (and the paths under
 * it) are left out, so the requests stay readable by clients that always ask for their shipment (the reference
 * includes it by default); the relationship still names the shipment's id.
 */
export function withheldInclude<T>(req: FastifyRequest, include: T): T | string {
  if (!req.apiAccess || req.apiAccess.allowed || typeof include !== 'string') return include;
  return include
    .split(',')
    .filter((path) => path.trim().split('.')[0] !== 'tracked_object')
    .join(',');
}

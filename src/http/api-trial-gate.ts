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
 * edits included), search, and webhook notifications (their bodies are tracking data). Not gated: tracking requests
 * (only their `tracked_object` is withheld, see withheldInclude), webhooks and their deliveries (a notification sent
 * again, replay, trigger, the examples), parties and their roles, custom fields, reference data, keys, the account.
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
  'GET /v2/containers/:id/transport_events',
  'GET /v2/containers/:id/raw_events',
  'GET /v2/containers/:id/map_geojson',
  'PATCH /v2/containers/:id/refresh',
  'GET /v2/search',
  'GET /v2/webhook_notifications',
  'GET /v2/webhook_notifications/:id',
];

const GATED = new Set(TRACKING_DATA_ROUTES);

/** onRoute: marks a tracking-data route and documents its 403 (the OpenAPI document lists every status it answers). */
export function markTrackingDataRoute(route: RouteOptions): void {
  // HEAD is the GET without its body: the same route for the gate.
  const gated = [route.method].flat().some((m) => GATED.has(`${m === 'HEAD' ? 'GET' : m} ${route.url}`));
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

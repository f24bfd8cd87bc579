// The Fastify app: parsing, authentication, rate limits, errors, OpenAPI, and every route.
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TidemarkError } from '../domain/errors.js';
import { isJsonApiDocument } from '../render/schemas.js';
import { randomUUID } from 'node:crypto';
import { authenticateAccount, authenticateAdmin, authenticateSession, enforceRateLimit, isAdmin, requireFeature } from './auth.js';
import { enforceApiTrial, markTrackingDataRoute } from './api-trial-gate.js';
import type { App, HttpDeps } from './context.js';
import { clientError, errorBody, frameworkError, sendError } from './errors.js';
import { parseQuery } from './query.js';
import type { Listener } from './listener.js';
import { JSONAPI } from './reply.js';
import { refuseUnstorableText } from './text-guard.js';
import createAccount from './routes/admin/create-account.js';
import createAccountKey from './routes/admin/create-key.js';
import listAccounts from './routes/admin/list-accounts.js';
import listAccountKeys from './routes/admin/list-keys.js';
import passwordReset from './routes/admin/password-reset.js';
import revokeKey from './routes/admin/revoke-key.js';
import updateAccount from './routes/admin/update-account.js';
import startTrial from './routes/admin/start-trial.js';
import extendTrial from './routes/admin/extend-trial.js';
import endTrial from './routes/admin/end-trial.js';
import getAccount from './routes/account/get.js';
import authConfig from './routes/auth/config.js';
import getLink from './routes/auth/get-link.js';
import getSession from './routes/auth/get-session.js';
import invite from './routes/auth/invite.js';
import listMembers from './routes/auth/list-members.js';
import removeMember from './routes/auth/remove-member.js';
import resendVerification from './routes/auth/resend-verification.js';
import resetMember from './routes/auth/reset-member.js';
import signIn from './routes/auth/signin.js';
import signOut from './routes/auth/signout.js';
import signUp from './routes/auth/signup.js';
import useLink from './routes/auth/use-link.js';
import verifyEmail from './routes/auth/verify.js';
import createApiKey from './routes/api-keys/create.js';
import deleteApiKey from './routes/api-keys/delete.js';
import listApiKeys from './routes/api-keys/list.js';
import findShipment from './routes/shipments/find.js';
import listCustomFieldDefinitions from './routes/custom-fields/list-definitions.js';
import createCustomFieldDefinition from './routes/custom-fields/create-definition.js';
import getCustomFieldDefinition from './routes/custom-fields/get-definition.js';
import updateCustomFieldDefinition from './routes/custom-fields/update-definition.js';
import deleteCustomFieldDefinition from './routes/custom-fields/delete-definition.js';
import listCustomFieldOptions from './routes/custom-fields/list-options.js';
import createCustomFieldOption from './routes/custom-fields/create-option.js';
import getCustomFieldOption from './routes/custom-fields/get-option.js';
import updateCustomFieldOption from './routes/custom-fields/update-option.js';
import deleteCustomFieldOption from './routes/custom-fields/delete-option.js';
import listCustomFields from './routes/custom-fields/list.js';
import createCustomField from './routes/custom-fields/create.js';
import getCustomField from './routes/custom-fields/get.js';
import updateCustomField from './routes/custom-fields/update.js';
import deleteCustomField from './routes/custom-fields/delete.js';
import listCustomFieldsOn from './routes/custom-fields/list-on.js';
import setCustomFieldOn from './routes/custom-fields/set-on.js';
import updateCustomFieldOn from './routes/custom-fields/update-on.js';
import deleteCustomFieldOn from './routes/custom-fields/delete-on.js';
import createParty from './routes/parties/create.js';
import getParty from './routes/parties/get.js';
import listParties from './routes/parties/list.js';
import updateParty from './routes/parties/update.js';
import getMetroArea from './routes/places/get-metro-area.js';
import getPort from './routes/places/get-port.js';
import getTerminal from './routes/places/get-terminal.js';
import futurePositions from './routes/vessels/future-positions.js';
import futurePositionsWithCoordinates from './routes/vessels/future-positions-with-coordinates.js';
import getVessel from './routes/vessels/get.js';
import getContainer from './routes/containers/get.js';
import listContainers from './routes/containers/list.js';
import containerRawEvents from './routes/containers/raw-events.js';
import containerTransportEvents from './routes/containers/transport-events.js';
import refreshContainer from './routes/containers/refresh.js';
import updateContainer from './routes/containers/update.js';
import containerBoard from './routes/containers/board.js';
import containerMapGeojson from './routes/containers/map-geojson.js';
import createPartyRole from './routes/party-roles/create.js';
import deletePartyRole from './routes/party-roles/delete.js';
import getPartyRole from './routes/party-roles/get.js';
import getShipment from './routes/shipments/get.js';
import listShipments from './routes/shipments/list.js';
import resumeTracking from './routes/shipments/resume-tracking.js';
import stopTracking from './routes/shipments/stop-tracking.js';
import updateShipment from './routes/shipments/update.js';
import shipmentEstimatedEvents from './routes/shipments/estimated-events.js';
import getShippingLine from './routes/shipping-lines/get.js';
import listShippingLines from './routes/shipping-lines/list.js';
import advanceSandboxClock from './routes/sandbox/advance-clock.js';
import getSandboxClock from './routes/sandbox/get-clock.js';
import sandboxExamples from './routes/sandbox/examples.js';
import sandboxFaces from './routes/sandbox/faces.js';
import search from './routes/search/search.js';
import healthz from './routes/system/healthz.js';
import metrics from './routes/system/metrics.js';
import readyz from './routes/system/readyz.js';
import createTrackingRequest from './routes/tracking-requests/create.js';
import getTrackingRequest from './routes/tracking-requests/get.js';
import inferNumber from './routes/tracking-requests/infer-number.js';
import listTrackingRequests from './routes/tracking-requests/list.js';
import updateTrackingRequest from './routes/tracking-requests/update.js';
import webhookNotificationExamples from './routes/webhook-notifications/examples.js';
import getWebhookNotification from './routes/webhook-notifications/get.js';
import redeliverNotification from './routes/webhook-notifications/redeliver.js';
import createWebhook from './routes/webhooks/create.js';
import deleteWebhook from './routes/webhooks/delete.js';
import webhookEvents from './routes/webhooks/events.js';
import getWebhook from './routes/webhooks/get.js';
import webhookIps from './routes/webhooks/ips.js';
import listWebhooks from './routes/webhooks/list.js';
import replayWebhook from './routes/webhooks/replay.js';
import rotateWebhookSecret from './routes/webhooks/rotate-secret.js';
import triggerWebhook from './routes/webhooks/trigger.js';
import updateWebhook from './routes/webhooks/update.js';
import listWebhookNotifications from './routes/webhook-notifications/list.js';
import mcpRoutes from './routes/mcp/mcp.js';
import authorizationServer from './routes/oauth/authorization-server.js';
import interactionAbort from './routes/oauth/interaction-abort.js';
import interactionConfirm from './routes/oauth/interaction-confirm.js';
import interactionDetails from './routes/oauth/interaction-details.js';
import protectedResourceMetadata from './routes/oauth/protected-resource.js';
import webAppAssets from './routes/web/assets.js';
import webAppShell from './routes/web/shell.js';

export interface AppOptions {
  /** A pino logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /**
   * The listener bound before the app was composed (http/listener.ts): the app answers its requests from now on and
   * closes it as it closes. Without one the app does not listen (inject() only, or app.listen()).
   */
  listener?: Listener;
}

/** Served only while the sandbox is on. */
const SANDBOX_ROUTES = [getSandboxClock, advanceSandboxClock, sandboxExamples, sandboxFaces];

const ROUTES = [
  listShipments,
  getShipment,
  updateShipment,
  shipmentEstimatedEvents,
  stopTracking,
  resumeTracking,
  refreshContainer,
  getContainer,
  containerRawEvents,
  containerTransportEvents,
  listContainers,
  containerBoard,
  containerMapGeojson,
  updateContainer,
  listShippingLines,
  getShippingLine,
  getPort,
  getMetroArea,
  getTerminal,
  getVessel,
  futurePositions,
  futurePositionsWithCoordinates,
  createParty,
  listParties,
  getParty,
  updateParty,
  createPartyRole,
  getPartyRole,
  deletePartyRole,
  // Custom fields: definitions, their options, values, and the values on shipments, containers, tracking requests.
  listCustomFieldDefinitions,
  createCustomFieldDefinition,
  getCustomFieldDefinition,
  updateCustomFieldDefinition,
  deleteCustomFieldDefinition,
  listCustomFieldOptions,
  createCustomFieldOption,
  getCustomFieldOption,
  updateCustomFieldOption,
  deleteCustomFieldOption,
  listCustomFields,
  createCustomField,
  getCustomField,
  updateCustomField,
  deleteCustomField,
  listCustomFieldsOn,
  setCustomFieldOn,
  updateCustomFieldOn,
  deleteCustomFieldOn,
  inferNumber,
  createTrackingRequest,
  listTrackingRequests,
  getTrackingRequest,
  updateTrackingRequest,
  search,
  // The static examples path is matched before `/:id` whatever the order (the router prefers static segments).
  webhookNotificationExamples,
  listWebhookNotifications,
  getWebhookNotification,
  redeliverNotification,
  createWebhook,
  listWebhooks,
  webhookEvents,
  webhookIps,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  replayWebhook,
  triggerWebhook,
  // The caller's own account, with its plan and API trial (never gated).
  getAccount,
  // The operator API (admin token).
  listAccounts,
  createAccount,
  updateAccount,
  startTrial,
  extendTrial,
  endTrial,
  listAccountKeys,
  createAccountKey,
  revokeKey,
  passwordReset,
  // The web app's sign-up, sign-in, session, one-time links and team (plain JSON).
  authConfig,
  getSession,
  signUp,
  resendVerification,
  verifyEmail,
  signIn,
  signOut,
  getLink,
  useLink,
  listMembers,
  invite,
  removeMember,
  resetMember,
  listApiKeys,
  createApiKey,
  deleteApiKey,
  findShipment,
  healthz,
  readyz,
  metrics,
  // The MCP endpoint (POST /mcp; its own authentication).
  mcpRoutes,
  // OAuth 2.1 for MCP clients (resource metadata, the authorization server, the consent page's JSON).
  protectedResourceMetadata,
  interactionDetails,
  interactionConfirm,
  interactionAbort,
  authorizationServer,
  // The web app's shell and assets (hidden from the OpenAPI document).
  webAppShell,
  webAppAssets,
];

/**
 * The resource, document and error schemas with an id (`.meta({ id })`, src/render/schemas.ts) as named
 * components that the routes' schemas `$ref`. The transform copies every registered schema once for requests
 * (`<id>Input`) and once for responses; the request copies no request references are left out.
 */
/**
 * Routes declare responses as plain schemas (that is what types `reply.send`); JSON:API documents and errors
 * (src/render/schemas.ts) are documented under the media type they are sent as, with their description.
 */
export function documentResponses(route: Parameters<typeof jsonSchemaTransform>[0]): ReturnType<typeof jsonSchemaTransform> {
  const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
  if (!response) return jsonSchemaTransform(route);
  const declared: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(response)) {
    declared[status] = isJsonApiDocument(schema)
      ? {
          description: z.globalRegistry.get(schema as z.ZodType)?.description ?? 'A JSON:API document',
          content: { 'application/vnd.api+json': { schema } },
        }
      : schema;
  }
  return jsonSchemaTransform({ ...route, schema: { ...route.schema, response: declared } } as typeof route);
}

export function namedComponents(document: Parameters<typeof jsonSchemaTransformObject>[0]): ReturnType<typeof jsonSchemaTransformObject> {
  const out = jsonSchemaTransformObject(document) as { components?: { schemas?: Record<string, unknown> } };
  const schemas = out.components?.schemas;
  if (schemas) {
    const text = JSON.stringify({ ...out, components: { ...out.components, schemas: {} } });
    const referenced = (id: string) => text.includes(`"#/components/schemas/${id}"`);
    for (const id of Object.keys(schemas)) if (id.endsWith('Input') && !referenced(id)) delete schemas[id];
  }
  return out as ReturnType<typeof jsonSchemaTransformObject>;
}

export async function buildApp(deps: HttpDeps, options: AppOptions = {}): Promise<App> {
  let fastifyHandler: Parameters<Listener['serve']>[0] | null = null;
  const listener = options.listener;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // Request ids are only echoed (x-request-id, error bodies): random, from node's pooled entropy, and not
    // the time-ordered record ids, whose one crypto call per id showed in the container GET profile.
    genReqId: () => randomUUID(),
    routerOptions: {
      ignoreTrailingSlash: true,
      querystringParser: parseQuery,
    },
    bodyLimit: 1024 * 1024,
    // What the router and the HTTP parser refuse is answered in the JSON:API errors form too (errors.ts).
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    // A request that reaches a closing server gets our JSON:API 503 (onRequest below), not Fastify's own body.
    return503OnClosing: false,
    // request.ip (every per-address limit's key) is the X-Forwarded-For client only when the peer is a trusted
    // proxy (TIDEMARK_TRUSTED_PROXIES); otherwise the header is ignored and the socket's address is the client's.
    trustProxy: deps.config.trustedProxies.length > 0 ? deps.config.trustedProxies : false,
    // The bound listener is handed over, but keeps answering 503 until the app is ready: a request that reached
    // Fastify's handler before its routes' hooks are built would crash the process (it did, under the benchmarks'
    // start-up polling).
    ...(listener
      ? {
          serverFactory: (handler: Parameters<Listener['serve']>[0]) => {
            fastifyHandler = handler;
            return listener.server;
          },
        }
      : {}),
  }).withTypeProvider<ZodTypeProvider>();
  if (listener) {
    app.addHook('onReady', async () => {
      if (fastifyHandler) listener.serve(fastifyHandler);
    });
  }

  // The routes this app serves, for checking that the OpenAPI document lists them all.
  const routeTable: { method: string; url: string; documented: boolean }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    markTrackingDataRoute(r);
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({ method, url: r.url, documented: !(r.schema as { hide?: boolean } | undefined)?.hide });
    }
  });

  app.setValidatorCompiler(validatorCompiler);
  // Response schemas document the API (/v2/openapi.json) and type `reply.send`; they are not checked on every
  // response. Parsing each document against its schema would cost a walk of every body on the hot paths, and a
  // mismatch would turn a good answer into a 500 for the client. The tests check every response they see
  // against the OpenAPI document instead (test/kit/openapi.ts). Strings and buffers (the document cache's
  // pre-rendered bodies) never reach a serializer.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorateRequest('account', null);
  app.decorateRequest('apiKeyId', null);
  app.decorateRequest('user', null);
  app.decorateRequest('csrfToken', null);
  app.decorateRequest('apiAccess', null);
  await app.register(cookie);
  // Browser clients on the origins the operator lists (TIDEMARK_CORS_ORIGINS) may call /v2 with a key; nothing else is
  // opened cross-origin (the web app's /auth routes and its session cookie stay same-origin: credentials are not allowed).
  if (deps.config.corsOrigins.length > 0) {
    // A delegator's answer is the whole of a request's CORS options (merged with the plugin's defaults only).
    const open = {
      origin: [...deps.config.corsOrigins],
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept'],
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'Allow', 'Location'],
      credentials: false,
      maxAge: 600,
    };
    await app.register(cors, { delegator: (req, done) => done(null, (req.url ?? '').startsWith('/v2/') ? open : { origin: false }) });
  }

  // JSON and JSON:API bodies (with any parameters); an empty body is no body, so writes that need
  // none (stop tracking, refresh) work whatever Content-Type the client sends. Other types → 415.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(['application/json', 'application/vnd.api+json'], { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    return parseJson(req, body as string, done);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tidemark API',
        version: '2',
        description: 'Container tracking. Wire-compatible with the Terminal49 API v2.',
      },
      servers: [{ url: deps.config.publicUrl }],
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Token <api key>` or `Bearer <api key>`' },
        },
      },
      security: [{ token: [] }],
    },
    transform: documentResponses,
    transformObject: namedComponents,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { validatorUrl: null, deepLinking: true }, staticCSP: true });

  // Set as the app starts to close: requests still arriving (pipelined, or on a busy keep-alive connection) are
  // answered 503 before authentication touches a database that is about to go.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    // Fastify closes only servers it listened on itself: a bound listener stops accepting, its idle keep-alive
    // connections end, and the close waits for those in flight, as Fastify's own close does.
    await listener?.close();
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (closing) {
      reply.header('connection', 'close');
      const detail = 'This server is shutting down; send the request again';
      throw new TidemarkError('unavailable', detail, { retryAfterSeconds: 1, items: [{ detail }] });
    }
    // Unmatched routes answer 404 to anyone; every matched /v2 route needs an account key by default.
    const matched = req.routeOptions.url !== undefined;
    const auth = req.routeOptions.config.auth ?? (matched && req.routeOptions.url!.startsWith('/v2/') ? 'account' : 'none');
    if (auth === 'account') {
      await authenticateAccount(req, deps);
      await enforceRateLimit(req, deps, req.routeOptions.config.rateBucket ?? 'default');
      const feature = req.routeOptions.config.feature;
      if (feature) requireFeature(req.account, feature);
      // A free account's API key reads tracking data only during an API trial (api-trial-gate.ts).
      enforceApiTrial(req, deps);
    } else if (auth === 'session') {
      if (!(await authenticateSession(req, deps))) {
        throw new TidemarkError('unauthorized', 'Not signed in', { items: [{ title: 'Unauthorized', detail: 'Not signed in' }] });
      }
      await enforceRateLimit(req, deps, 'session');
    } else if (auth === 'admin') {
      await authenticateAdmin(req, deps);
    } else if (auth === 'admin_or_feature') {
      if (await isAdmin(req, deps)) return;
      await authenticateAccount(req, deps);
      await enforceRateLimit(req, deps, req.routeOptions.config.rateBucket ?? 'default');
      const feature = req.routeOptions.config.feature;
      if (!feature) throw new Error(`route ${req.routeOptions.url} is admin_or_feature without a feature`);
      requireFeature(req.account, feature);
    }
  });

  // Text PostgreSQL cannot store (NUL, unpaired surrogates) is refused here, for every route, before validation.
  app.addHook('preValidation', refuseUnstorableText);

  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    deps.metrics.httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    deps.metrics.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });

  app.setErrorHandler((err, req, reply) => sendError(reply, err, req));
  // A known /v2 or /admin path asked with a method it does not take is a 405 naming the ones it does (`Allow`);
  // anything else unrouted is a 404.
  app.setNotFoundHandler((req, reply) => {
    const allow = allowedMethods(routeTable, req.url);
    if (allow.length > 0) {
      const detail = `${req.method} is not allowed here; this path takes ${allow.join(', ')}`;
      return reply
        .code(405)
        .header('allow', allow.join(', '))
        .type(JSONAPI)
        .send(errorBody(405, [{ detail }], String(req.id)));
    }
    return reply
      .code(404)
      .type(JSONAPI)
      .send(errorBody(404, [{ title: 'Not Found' }], String(req.id)));
  });

  app.get('/v2/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger());

  for (const route of ROUTES) route(app as App, deps);
  const sandbox = deps.sandbox;
  if (sandbox) for (const route of SANDBOX_ROUTES) route(app as App, { ...deps, sandbox });
  return app as App;
}

/**
 * The methods the API's routes take at a concrete path (`/v2/shipments/<id>` → GET, HEAD, PATCH), from the route table's
 * patterns; [] for a path no /v2 or /admin route has.
 */
export function allowedMethods(routes: readonly { method: string; url: string }[], url: string): string[] {
  const path = (url.split('?')[0] ?? '').replace(/\/+$/, '');
  const segments = path.split('/');
  const methods = new Set<string>();
  for (const r of routes) {
    if (!/^\/(v2|admin)\//.test(r.url)) continue;
    const pattern = r.url.replace(/\/+$/, '').split('/');
    if (pattern.length !== segments.length) continue;
    if (pattern.every((p, i) => (p.startsWith(':') ? segments[i] !== '' : p === segments[i]))) methods.add(r.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

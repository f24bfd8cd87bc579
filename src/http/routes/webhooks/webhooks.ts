// Webhook management: POST/GET /v2/webhooks, GET/PATCH/DELETE /v2/webhooks/{id}, rotate_secret, replay,
// the event catalogue and the egress addresses. (The notification read API is routes/webhook-notifications.)
import { z } from 'zod';
import { validationFailed } from '../../../domain/errors.js';
import { isCalendarDate, isIsoInstant } from '../../../lib/dates.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { pageLinks, parsePage } from '../../jsonapi.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { webhookKind } from '../../../render/webhook.js';
import { listQuery } from '../../schemas.js';
import { idMismatch } from '../../errors.js';

const header = z.object({ name: z.string(), value: z.string() }).strict();
const attributes = z
  .object({
    url: z.string().nullish(),
    events: z.array(z.string()).nullish(),
    active: z.boolean().nullish(),
    headers: z.array(header).nullish(),
    secret: z.string().nullish(),
  })
  .strict();
const body = z.object({ data: z.object({ type: z.literal('webhook').optional(), id: z.string().optional(), attributes }) });

const instant = z
  .string()
  .refine((v) => isIsoInstant(v) || isCalendarDate(v), 'must be an ISO 8601 date-time with a zone, or a date, that exists');
const replayBody = z.object({ from: instant, to: instant, events: z.array(z.string()).optional() }).strict();

export default function webhookRoutes(app: App, deps: HttpDeps) {
  const kind = webhookKind(deps);
  const one = (req: { url: string }, view: Parameters<typeof kind.render>[0]) => ({
    data: kind.render(view),
    links: { self: selfUrl(deps.config.publicUrl, req as never) },
  });

  app.post(
    '/v2/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Create a webhook',
        description:
          '`url` (https), `events` (at least one name from GET /v2/webhooks/events), `active` (default true), `headers` `[{name, value}]` sent with every delivery, and `secret` to keep one (migrating receivers); else a `whsec_…` secret is generated. The response carries the secret.',
        body,
      },
    },
    async (req, reply) => {
      const webhook = await deps.webhooks.create(accountOf(req), req.body.data.attributes);
      return sendDocument(reply, 201, { data: kind.render(webhook), links: { self: `/v2/webhooks/${webhook.id}` } });
    },
  );

  app.get(
    '/v2/webhooks',
    { schema: { tags: ['webhooks'], summary: "List the account's webhooks", querystring: listQuery } },
    async (req, reply) => {
      const page = parsePage(req.query, 30);
      const { items, total } = await deps.webhooks.list(accountOf(req).id, page);
      return sendDocument(reply, 200, {
        data: items.map(kind.render),
        links: pageLinks(deps.config.publicUrl, req.url, page, total),
        meta: { size: items.length, total },
      });
    },
  );

  app.get(
    '/v2/webhooks/events',
    { schema: { tags: ['webhooks'], summary: 'The events a webhook can subscribe to, by category (those the account may receive)' } },
    async (req, reply) =>
      sendDocument(reply, 200, {
        data: deps.webhooks.eventCategories(accountOf(req).features).map((c) => ({
          id: c.id,
          type: 'webhook_event_category',
          attributes: { name: c.name, events: c.events.map((e) => ({ name: e.name, description: e.description })) },
          relationships: {},
        })),
        links: { self: selfUrl(deps.config.publicUrl, req) },
      }),
  );

  app.get(
    '/v2/webhooks/ips',
    { schema: { tags: ['webhooks'], summary: 'The addresses deliveries come from (plain JSON; TIDEMARK_WEBHOOKS_EGRESS_IPS)' } },
    async () => deps.webhooks.egressIps(),
  );

  app.get('/v2/webhooks/:id', { schema: { tags: ['webhooks'], summary: 'Get a webhook' } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    return sendDocument(reply, 200, one(req, await deps.webhooks.get(accountOf(req).id, id)));
  });

  app.patch(
    '/v2/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Edit a webhook',
        description: 'Any of `url`, `events`, `active`, `headers`. Turning a deactivated webhook on again clears its failure record.',
        body,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      if (req.body.data.id !== undefined && req.body.data.id !== id) throw idMismatch();
      return sendDocument(reply, 200, one(req, await deps.webhooks.update(accountOf(req), id, req.body.data.attributes)));
    },
  );

  app.delete(
    '/v2/webhooks/:id',
    { schema: { tags: ['webhooks'], summary: 'Delete a webhook (and its notifications)' } },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      await deps.webhooks.delete(accountOf(req).id, id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/webhooks/:id/rotate_secret',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Rotate the signing secret',
        description:
          'A new `whsec_…` secret; for 24 hours deliveries carry Standard Webhooks signatures with both the new and the old secret (and the hex signature with the new one), so receivers can switch without a gap.',
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      return sendDocument(reply, 200, one(req, await deps.webhooks.rotateSecret(accountOf(req).id, id)));
    },
  );

  app.post(
    '/v2/webhooks/:id/replay',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Send stored notifications again',
        description:
          'Plain JSON `{"from": ISO 8601, "to": ISO 8601, "events"?: [...]}`: every notification of this webhook created in the window is queued again with its original id and body (receivers de-duplicate by id). Answers 202 `{"meta": {"queued": N}}`.',
        body: replayBody,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const { from, to, events } = req.body;
      const queued = await deps.webhooks.replay(accountOf(req), id, {
        from: new Date(from),
        // A date alone means the whole day.
        to: /^\d{4}-\d{2}-\d{2}$/.test(to) ? new Date(Date.parse(to) + 86_400_000 - 1) : new Date(to),
        ...(events ? { events } : {}),
      });
      return reply.code(202).send({ meta: { queued } });
    },
  );

  app.post(
    '/v2/webhooks/trigger',
    {
      // It reaches any public host and answers with part of what came back: a small budget of its own.
      config: { rateBucket: 'webhook_trigger' },
      schema: {
        tags: ['webhooks'],
        summary: 'Send one sample notification to a URL (plain JSON)',
        description:
          '`{url, event, secret?}`: sends the sample document of the event (as GET /v2/webhook_notifications/examples shows it) to the URL without creating a webhook, signed when a secret is given (only the hex signature for a secret that is not `whsec_…`), and answers with what was sent and received. 10 requests a minute (a bucket of its own).',
        body: z.object({ url: z.unknown().optional(), event: z.unknown().optional(), secret: z.unknown().optional() }),
      },
    },
    async (req) => {
      const { url, event, secret } = req.body;
      const problems = [];
      if (typeof url !== 'string' || !url.trim()) problems.push({ detail: 'url is required', pointer: '/url' });
      if (typeof event !== 'string' || !event.trim()) problems.push({ detail: 'event is required', pointer: '/event' });
      if (secret !== undefined && secret !== null && typeof secret !== 'string')
        problems.push({ detail: 'secret must be a string', pointer: '/secret' });
      if (problems.length) throw validationFailed(problems);
      return deps.webhooks.trigger(accountOf(req), {
        url: url as string,
        event: event as string,
        secret: (secret as string | null) ?? null,
      });
    },
  );
}

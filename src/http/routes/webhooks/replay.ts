// POST /v2/webhooks/{id}/replay: every notification of the webhook in a window, queued again (plain JSON).
import { z } from 'zod';
import { isCalendarDate, isIsoInstant } from '../../../lib/dates.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';

const instant = z
  .string()
  .refine((v) => isIsoInstant(v) || isCalendarDate(v), 'must be an ISO 8601 date-time with a zone, or a date, that exists');
const replayBody = z.object({ from: instant, to: instant, events: z.array(z.string()).optional() }).strict();

/** 202 (plain JSON): how many notifications were queued again. */
const replayed = z.strictObject({ meta: z.strictObject({ queued: z.number().int().min(0) }) });

export default function replayWebhook(app: App, deps: HttpDeps) {
  app.post(
    '/v2/webhooks/:id/replay',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Send stored notifications again',
        description:
          'Plain JSON `{"from": ISO 8601, "to": ISO 8601, "events"?: [...]}`: every notification of this webhook created in the window is queued again with its original id and body (receivers de-duplicate by id). Answers 202 `{"meta": {"queued": N}}`.',
        params: idParams,
        body: replayBody,
        response: {
          202: described(replayed, 'Queued: `meta.queued` notifications will be sent again'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      const { from, to, events } = req.body;
      const queued = await deps.webhooks.replay(accountOf(req), req.params.id, {
        from: new Date(from),
        // A date alone means the whole day.
        to: /^\d{4}-\d{2}-\d{2}$/.test(to) ? new Date(Date.parse(to) + 86_400_000 - 1) : new Date(to),
        ...(events ? { events } : {}),
      });
      return reply.code(202).send({ meta: { queued } });
    },
  );
}

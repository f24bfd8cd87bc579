// POST /v2/webhooks/{id}/replay: every notification of the webhook in a window, queued again (plain JSON).
import { z } from 'zod';
import { isCalendarDate, isIsoInstant } from '../../../lib/dates.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { idParams } from '../../schemas.js';

const instant = z
  .string()
  .refine((v) => isIsoInstant(v) || isCalendarDate(v), 'must be an ISO 8601 date-time with a zone, or a date, that exists');
const replayBody = z.object({ from: instant, to: instant, events: z.array(z.string()).optional() }).strict();

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

// POST /v2/webhooks/trigger: one sample notification sent to a URL without a webhook (plain JSON).
import { z } from 'zod';
import { validationFailed } from '../../../domain/errors.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, WRITE_ERRORS } from '../../schemas.js';

/** What was sent and what came back (plain JSON, the reference's `TriggerResult`, api-wire-notes §5). */
const triggerResult = z.strictObject({
  url: z.string(),
  succeeded: z.boolean().meta({ description: 'Whether the receiver took the delivery' }),
  error: z.string().nullable().meta({ description: 'What went wrong when it did not succeed; else null' }),
  status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null without an answer" }),
  request_headers: z.record(z.string(), z.string()),
  request_body: z.string().meta({ description: 'The sample document as sent (JSON text)' }),
  response_headers: z.record(z.string(), z.string()),
  response_body: z.string().nullable(),
});

export default function triggerWebhook(app: App, deps: HttpDeps) {
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
        // 429 from its own bucket (webhook_trigger); 422 names a wrong url, event or secret.
        response: {
          200: described(triggerResult, 'What was sent and received (plain JSON), whether or not the receiver took it'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS),
        },
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

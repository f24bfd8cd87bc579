// GET /v2/webhooks/ips: the addresses deliveries come from (plain JSON).
import { z } from 'zod';
import { instant } from '../../../render/schemas.js';
import type { App, HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';

/** The reference's plain JSON (api-wire-notes §5): `{"webhook_notification_ips": [...], "last_updated": "…Z"}`. */
const egressIps = z.strictObject({
  webhook_notification_ips: z.array(z.string()).meta({ description: 'IPv4 or IPv6 addresses (TIDEMARK_WEBHOOKS_EGRESS_IPS)' }),
  last_updated: instant.nullable().meta({ description: 'When this list last changed' }),
});

export default function webhookIps(app: App, deps: HttpDeps) {
  app.get(
    '/v2/webhooks/ips',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'The addresses deliveries come from (plain JSON; TIDEMARK_WEBHOOKS_EGRESS_IPS)',
        // 400: text PostgreSQL cannot store in the query (http/text-guard.ts, every route).
        response: { 200: described(egressIps, 'The egress addresses (plain JSON)'), ...errorResponses(400, ...API_ERRORS) },
      },
    },
    async () => deps.webhooks.egressIps(),
  );
}

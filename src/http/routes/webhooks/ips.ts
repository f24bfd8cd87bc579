// GET /v2/webhooks/ips: the addresses deliveries come from (plain JSON).
import type { App, HttpDeps } from '../../context.js';

export default function webhookIps(app: App, deps: HttpDeps) {
  app.get(
    '/v2/webhooks/ips',
    { schema: { tags: ['webhooks'], summary: 'The addresses deliveries come from (plain JSON; TIDEMARK_WEBHOOKS_EGRESS_IPS)' } },
    async () => deps.webhooks.egressIps(),
  );
}

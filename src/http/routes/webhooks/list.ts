// GET /v2/webhooks: the account's webhooks, a page at a time.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { webhookKind } from '../../../render/webhook.js';
import { listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';

export default function listWebhooks(app: App, deps: HttpDeps) {
  const kind = webhookKind(deps);
  app.get(
    '/v2/webhooks',
    { schema: { tags: ['webhooks'], summary: "List the account's webhooks", querystring: listQuery } },
    async (req, reply) =>
      sendPage(reply, req, deps.config.publicUrl, {
        kind,
        query: req.query,
        defaultInclude: null,
        pageSize: 30,
        load: (page) => deps.webhooks.list(accountOf(req).id, page),
      }),
  );
}

// GET /v2/webhooks: the account's webhooks, a page at a time.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { webhookKind } from '../../../render/webhook.js';
import { listDocument, webhookResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';

export default function listWebhooks(app: App, deps: HttpDeps) {
  const kind = webhookKind(deps);
  app.get(
    '/v2/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: "List the account's webhooks",
        querystring: listQuery,
        // 400: a wrong page[number] or page[size].
        response: {
          200: described(listDocument(webhookResource), "A page of the account's webhooks"),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
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

// GET /v2/api_keys: the account's API keys (masked), newest first, for the web app's developers page and for
// scripts (session or key auth).
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { apiKeyResource, listDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';
import { renderApiKey } from './resource.js';

export default function listApiKeys(app: App, deps: HttpDeps) {
  app.get(
    '/v2/api_keys',
    {
      schema: {
        tags: ['api_keys'],
        summary: "The account's API keys (masked), newest first",
        response: {
          200: described(listDocument(apiKeyResource), 'Every live key, masked (one page: no paging)'),
          // 400: text PostgreSQL cannot store in the query (http/text-guard.ts, every route).
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const keys = (await deps.accounts.listKeys(deps.db, accountOf(req).id)).filter((k) => !k.revokedAt);
      keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
      return sendDocument(reply, 200, { data: keys.map(renderApiKey), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}

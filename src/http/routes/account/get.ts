// GET /v2/account: the caller's own account, with its plan and API trial (a Tidemark extension, docs/extensions.md).
// Never gated: it is how a free account learns that it needs an API trial, and until when it has one.
import { renderAccount } from '../../../render/account.js';
import { accountResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';

export default function getAccount(app: App, deps: HttpDeps) {
  app.get(
    '/v2/account',
    {
      schema: {
        tags: ['account'],
        summary: 'Get your account',
        description:
          'Tidemark extension: the account of the key (or the web app’s session), with its plan and API trial (`trial_ends_at`, `api_access`).',
        // 400: a query parameter with text that cannot be stored (http/text-guard.ts), on every route.
        response: { 200: described(resourceDocument(accountResource), 'Your account'), ...errorResponses(400, ...API_ERRORS) },
      },
    },
    async (req, reply) => {
      const account = accountOf(req);
      return sendDocument(reply, 200, {
        data: renderAccount(account, deps.apiTrial.access(account)),
        links: { self: `${deps.config.publicUrl}/v2/account` },
      });
    },
  );
}

// GET/POST /v2/api_keys, DELETE /v2/api_keys/{id}: the account's API keys, for the web app's developers page
// and for scripts (session or key auth). A created key is shown in full in that response only.
import { z } from 'zod';
import { validationFailed } from '../../../domain/errors.js';
import { type MaskedKey, maskKey } from '../../../services/accounts.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { isoSeconds, type ResourceObject } from '../../../render/jsonapi.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { resourceBody } from '../../schemas.js';

const render = (k: MaskedKey): ResourceObject => ({
  id: k.id,
  type: 'api_key',
  attributes: {
    name: k.name,
    masked: k.masked,
    created_at: isoSeconds(k.createdAt),
    last_used_at: isoSeconds(k.lastUsedAt),
  },
  relationships: {},
  links: { self: `/v2/api_keys/${k.id}` },
});

export default function apiKeyRoutes(app: App, deps: HttpDeps) {
  app.get('/v2/api_keys', { schema: { tags: ['api_keys'], summary: "The account's API keys (masked), newest first" } }, async (req, reply) => {
    const keys = (await deps.accounts.listKeys(deps.db, accountOf(req).id)).filter((k) => !k.revokedAt);
    keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    return sendDocument(reply, 200, { data: keys.map(render), links: { self: selfUrl(deps.config.publicUrl, req) } });
  });

  app.post(
    '/v2/api_keys',
    {
      schema: {
        tags: ['api_keys'],
        summary: 'Create an API key',
        description: 'The full key is in `attributes.key` of this response only; it is stored as a digest and cannot be shown again.',
        body: resourceBody('api_key', z.object({ name: z.string().nullish() }).strict()),
      },
    },
    async (req, reply) => {
      const name = req.body.data.attributes.name?.trim() || null;
      if (name && name.length > 100) {
        throw validationFailed([{ pointer: '/data/attributes/name', detail: 'name is too long (maximum is 100 characters)', code: 'too_long' }]);
      }
      const issued = await deps.accounts.issueKey(deps.db, accountOf(req).id, name);
      const resource = render(maskKey(issued.key));
      resource.attributes.key = issued.token;
      return sendDocument(reply, 201, { data: resource, links: { self: `/v2/api_keys/${issued.key.id}` } });
    },
  );

  app.delete('/v2/api_keys/:id', { schema: { tags: ['api_keys'], summary: 'Revoke an API key at once' } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    await deps.accounts.revokeKey(deps.db, id, accountOf(req).id);
    return reply.code(204).send();
  });
}

// POST /v2/api_keys: a new key, shown in full in this response only.
import { z } from 'zod';
import { validationFailed } from '../../../domain/errors.js';
import { maskKey } from '../../../services/accounts.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { apiKeyResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, resourceBody, WRITE_ERRORS } from '../../schemas.js';
import { renderApiKey } from './resource.js';

export default function createApiKey(app: App, deps: HttpDeps) {
  app.post(
    '/v2/api_keys',
    {
      schema: {
        tags: ['api_keys'],
        summary: 'Create an API key',
        description: 'The full key is in `attributes.key` of this response only; it is stored as a digest and cannot be shown again.',
        body: resourceBody('api_key', z.object({ name: z.string().nullish() }).strict()),
        response: {
          201: described(resourceDocument(apiKeyResource), 'The key, in full in `attributes.key`'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const name = req.body.data.attributes.name?.trim() || null;
      if (name && name.length > 100) {
        throw validationFailed([
          { pointer: '/data/attributes/name', detail: 'name is too long (maximum is 100 characters)', code: 'too_long' },
        ]);
      }
      const issued = await deps.accounts.issueKey(deps.db, accountOf(req).id, name);
      const resource = renderApiKey(maskKey(issued.key));
      resource.attributes.key = issued.token;
      return sendDocument(reply, 201, { data: resource, links: { self: `/v2/api_keys/${issued.key.id}` } });
    },
  );
}

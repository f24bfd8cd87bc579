// DELETE /v2/custom_field_definitions/{id}: the definition, its options and every value of it. 200 with `{}`, as the
// reference answers 200 (its SDK parses every 2xx body).
import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';
import { TAG } from './shared.js';

export default function deleteCustomFieldDefinition(app: App, deps: HttpDeps) {
  app.delete(
    '/v2/custom_field_definitions/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Delete a custom field definition (with its options and values)',
        params: idParams,
        response: {
          200: described(z.strictObject({}), 'Deleted: an empty JSON object'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      await deps.customFields.deleteDefinition(accountOf(req).id, req.params.id);
      return reply.code(200).send({});
    },
  );
}

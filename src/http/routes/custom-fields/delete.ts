// DELETE /v2/custom_fields/{id}: the value (the definition stays). 200 with `{}` as the reference answers 200.
import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, idParams, WRITE_ERRORS } from '../../schemas.js';
import { TAG } from './shared.js';

export default function deleteCustomField(app: App, deps: HttpDeps) {
  app.delete(
    '/v2/custom_fields/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Delete a custom field value',
        params: idParams,
        response: {
          200: described(z.strictObject({}), 'Deleted: an empty JSON object'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      await deps.customFields.delete(accountOf(req).id, req.params.id);
      return reply.code(200).send({});
    },
  );
}

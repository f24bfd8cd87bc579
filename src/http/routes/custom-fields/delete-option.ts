// DELETE /v2/custom_field_definitions/{definition_id}/options/{option_id}: 200 with `{}`. Values naming the option
// stay as they are (their display_value then shows the raw value).
import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, WRITE_ERRORS } from '../../schemas.js';
import { optionItemParams, TAG } from './shared.js';

export default function deleteCustomFieldOption(app: App, deps: HttpDeps) {
  app.delete(
    '/v2/custom_field_definitions/:definition_id/options/:option_id',
    {
      schema: {
        tags: [TAG],
        summary: 'Delete an option (values naming it stay)',
        params: optionItemParams,
        response: {
          200: described(z.strictObject({}), 'Deleted: an empty JSON object'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      await deps.customFields.deleteOption(accountOf(req).id, req.params.definition_id, req.params.option_id);
      return reply.code(200).send({});
    },
  );
}

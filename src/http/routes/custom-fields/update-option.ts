// PATCH /v2/custom_field_definitions/{definition_id}/options/{option_id}: label and position (value is fixed).
import { customFieldOptionKind } from '../../../render/custom-fields.js';
import { customFieldOptionResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses, resourceBody, WRITE_ERRORS } from '../../schemas.js';
import { optionAttributes, optionItemParams, TAG } from './shared.js';

export default function updateCustomFieldOption(app: App, deps: HttpDeps) {
  app.patch(
    '/v2/custom_field_definitions/:definition_id/options/:option_id',
    {
      schema: {
        tags: [TAG],
        summary: 'Update an option (label, position)',
        description: '`value` may be sent only unchanged: values already stored name it.',
        params: optionItemParams,
        body: resourceBody('custom_field_option', optionAttributes),
        response: {
          200: described(resourceDocument(customFieldOptionResource), 'The option as updated'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      const { definition_id, option_id } = req.params;
      const option = await deps.customFields.updateOption(accountOf(req).id, definition_id, option_id, req.body.data.attributes);
      return sendDocument(reply, 200, { data: customFieldOptionKind.render(option), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}

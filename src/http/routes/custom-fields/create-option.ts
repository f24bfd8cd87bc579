// POST /v2/custom_field_definitions/{definition_id}/options: an option of an enum or enum_multi definition (201).
import { customFieldOptionKind } from '../../../render/custom-fields.js';
import { customFieldOptionResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses, resourceBody, WRITE_ERRORS } from '../../schemas.js';
import { optionAttributes, optionParams, TAG } from './shared.js';

export default function createCustomFieldOption(app: App, deps: HttpDeps) {
  app.post(
    '/v2/custom_field_definitions/:definition_id/options',
    {
      schema: {
        tags: [TAG],
        summary: 'Add an option to an enum or enum_multi definition',
        description:
          '`label` and `value` (unique within the definition, fixed after creation); `position` orders them. At most 200 per definition.',
        params: optionParams,
        body: resourceBody('custom_field_option', optionAttributes),
        // 422 also for a taken value, a definition of another data type, the limit.
        response: {
          201: described(resourceDocument(customFieldOptionResource), 'The option'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      const option = await deps.customFields.createOption(accountOf(req).id, req.params.definition_id, req.body.data.attributes);
      return sendDocument(reply, 201, {
        data: customFieldOptionKind.render(option),
        links: { self: `${deps.config.publicUrl}/v2/custom_field_definitions/${option.definitionId}/options/${option.id}` },
      });
    },
  );
}

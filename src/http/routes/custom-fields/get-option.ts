// GET /v2/custom_field_definitions/{definition_id}/options/{option_id}.
import { customFieldOptionKind } from '../../../render/custom-fields.js';
import { customFieldOptionResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';
import { sendOne } from '../handlers.js';
import { optionItemParams, TAG } from './shared.js';

export default function getCustomFieldOption(app: App, deps: HttpDeps) {
  app.get(
    '/v2/custom_field_definitions/:definition_id/options/:option_id',
    {
      schema: {
        tags: [TAG],
        summary: 'Get an option of a custom field definition',
        params: optionItemParams,
        response: { 200: described(resourceDocument(customFieldOptionResource), 'The option'), ...errorResponses(400, 404, ...API_ERRORS) },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, {
        kind: customFieldOptionKind,
        include: null,
        load: () => deps.customFields.getOption(accountOf(req).id, req.params.definition_id, req.params.option_id),
      }),
  );
}

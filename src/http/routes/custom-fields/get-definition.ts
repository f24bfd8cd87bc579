// GET /v2/custom_field_definitions/{id}; include=options.
import { customFieldDefinitionResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, idParams, includeQuery } from '../../schemas.js';
import { sendOne } from '../handlers.js';
import { definitionKind, TAG } from './shared.js';

export default function getCustomFieldDefinition(app: App, deps: HttpDeps) {
  const kind = definitionKind(deps);
  app.get(
    '/v2/custom_field_definitions/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Get a custom field definition',
        params: idParams,
        querystring: includeQuery,
        response: {
          200: described(resourceDocument(customFieldDefinitionResource), 'The definition'),
          ...errorResponses(400, 404, ...API_ERRORS),
        },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, {
        kind,
        include: req.query.include,
        load: () => deps.customFields.getDefinition(accountOf(req).id, req.params.id),
      }),
  );
}

// PATCH /v2/custom_field_definitions/{id}: display_name, description, validation, default_format, default_value.
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { customFieldDefinitionResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses, idParams, includeQuery, resourceBody, WRITE_ERRORS } from '../../schemas.js';
import { definitionAttributes } from './create-definition.js';
import { DEFINITION_NUMBERS, definitionKind, keepBodyText, refuseImpreciseNumbers, TAG } from './shared.js';

export default function updateCustomFieldDefinition(app: App, deps: HttpDeps) {
  const kind = definitionKind(deps);
  app.patch(
    '/v2/custom_field_definitions/:id',
    {
      preParsing: keepBodyText,
      schema: {
        tags: [TAG],
        summary: 'Update a custom field definition',
        description:
          'Changes `display_name`, `description`, `validation`, `default_format`, `default_value`; `entity_type`, `api_slug`, `data_type` and `reference_type` may be sent only unchanged. Values already stored are not checked again.',
        params: idParams,
        querystring: includeQuery,
        body: resourceBody('custom_field_definition', definitionAttributes),
        response: {
          200: described(resourceDocument(customFieldDefinitionResource), 'The definition as updated'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      refuseImpreciseNumbers(req, req.body.data.attributes, DEFINITION_NUMBERS);
      const include = parseInclude(req.query.include, kind);
      const definition = await deps.customFields.updateDefinition(accountOf(req).id, req.params.id, req.body.data.attributes);
      const included = await resolveIncluded(kind, [definition], include);
      return sendDocument(reply, 200, {
        data: kind.render(definition),
        ...(included.length ? { included } : {}),
        links: { self: selfUrl(deps.config.publicUrl, req) },
      });
    },
  );
}

// POST /v2/custom_field_definitions: a new definition (201); include=options is accepted (a new one has none).
import { z } from 'zod';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { customFieldDefinitionResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses, includeQuery, resourceBody, WRITE_ERRORS } from '../../schemas.js';
import { DEFINITION_NUMBERS, definitionKind, keepBodyText, refuseImpreciseNumbers, TAG, valueAttribute } from './shared.js';

export const definitionAttributes = z.object({
  entity_type: z.string().optional().describe('Shipment, Container or TrackingRequest (also shipment, container, tracking_request, Cargo)'),
  api_slug: z.string().optional().describe('^[a-z][a-z0-9_]{0,62}$, unique per entity type; fixed after creation'),
  display_name: z.string().nullish(),
  description: z.string().nullish(),
  data_type: z.string().optional().describe('short_text, number, date, datetime, boolean, enum, enum_multi, reference'),
  reference_type: z.string().nullish().describe('shipment, container or tracking_request: required for reference fields only'),
  validation: z.object({}).catchall(z.unknown()).nullish().describe('required, pattern, max_length (short_text), min, max (number)'),
  default_format: z.string().nullish(),
  default_value: valueAttribute.optional(),
});

export default function createCustomFieldDefinition(app: App, deps: HttpDeps) {
  const kind = definitionKind(deps);
  app.post(
    '/v2/custom_field_definitions',
    {
      preParsing: keepBodyText,
      schema: {
        tags: [TAG],
        summary: 'Create a custom field definition',
        description:
          'At most 200 definitions per account. `api_slug`, `entity_type`, `data_type` and `reference_type` are fixed after creation.',
        querystring: includeQuery,
        body: resourceBody('custom_field_definition', definitionAttributes),
        // 422 also for a taken slug, a value that does not fit the data type, the account's limit.
        response: {
          201: described(resourceDocument(customFieldDefinitionResource), 'The definition'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS),
        },
      },
    },
    async (req, reply) => {
      refuseImpreciseNumbers(req, req.body.data.attributes, DEFINITION_NUMBERS);
      const include = parseInclude(req.query.include, kind);
      const definition = await deps.customFields.createDefinition(accountOf(req).id, req.body.data.attributes);
      const included = await resolveIncluded(kind, [definition], include);
      return sendDocument(reply, 201, {
        data: kind.render(definition),
        ...(included.length ? { included } : {}),
        links: { self: `${deps.config.publicUrl}/v2/custom_field_definitions/${definition.id}` },
      });
    },
  );
}

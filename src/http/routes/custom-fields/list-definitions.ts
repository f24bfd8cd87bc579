// GET /v2/custom_field_definitions: the account's definitions, oldest first, 25 a page; include=options.
import { DATA_TYPES, ENTITY_TYPE_SPELLINGS } from '../../../domain/custom-fields.js';
import { customFieldDefinitionResource, listDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { filterParams, oneOf, oneValue } from '../../query.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';
import { definitionKind, TAG } from './shared.js';

const querystring = listQuery.extend({
  filter: filterParams(
    {
      entity_type: oneOf(ENTITY_TYPE_SPELLINGS),
      data_type: oneOf(DATA_TYPES),
      display_name: oneValue().optional().describe('A prefix of the display name (any case)'),
    },
    'is not a filter of custom field definitions',
  ),
});

export default function listCustomFieldDefinitions(app: App, deps: HttpDeps) {
  const kind = definitionKind(deps);
  app.get(
    '/v2/custom_field_definitions',
    {
      schema: {
        tags: [TAG],
        summary: 'List custom field definitions',
        description:
          'Oldest first. Filters: `filter[entity_type]` (Shipment, Container, TrackingRequest; also shipment, container, tracking_request, Cargo), `filter[data_type]`, `filter[display_name]` (a prefix, any case). `include=options`.',
        querystring,
        response: {
          200: described(listDocument(customFieldDefinitionResource), 'A page of definitions, with `meta {size, total}`'),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const { entity_type, data_type, display_name } = req.query.filter ?? {};
      return sendPage(reply, req, deps.config.publicUrl, {
        kind,
        query: req.query,
        pageSize: 25,
        load: (page) =>
          deps.customFields.listDefinitions(
            accountOf(req).id,
            { entityType: entity_type, dataType: data_type, displayName: display_name || undefined },
            page,
          ),
      });
    },
  );
}

// GET /v2/custom_fields: the account's values, oldest first, 25 a page; filters entity_type, entity_id, definition_id;
// include=definition.
import { ENTITY_TYPE_SPELLINGS } from '../../../domain/custom-fields.js';
import { isUuid } from '../../../lib/ids.js';
import { customFieldResource, listDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { checkedValue, filterParams, oneOf } from '../../query.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';
import { fieldKind, TAG } from './shared.js';

const querystring = listQuery.extend({
  filter: filterParams(
    {
      entity_type: oneOf(ENTITY_TYPE_SPELLINGS),
      entity_id: checkedValue(isUuid, 'must be a record id (UUID)').describe('A shipment, container or tracking request id'),
      definition_id: checkedValue(isUuid, 'must be a definition id (UUID)').describe('A custom field definition id'),
    },
    'is not a filter of custom fields',
  ),
});

export default function listCustomFields(app: App, deps: HttpDeps) {
  const kind = fieldKind(deps);
  app.get(
    '/v2/custom_fields',
    {
      schema: {
        tags: [TAG],
        summary: 'List custom field values',
        description:
          'Oldest first. Filters: `filter[entity_type]` (Shipment, Container, TrackingRequest, or the lowercase spellings, or Cargo), `filter[entity_id]`, `filter[definition_id]`. `include=definition`.',
        querystring,
        response: {
          200: described(listDocument(customFieldResource), 'A page of custom field values, with `meta {size, total}`'),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const { entity_type, entity_id, definition_id } = req.query.filter ?? {};
      return sendPage(reply, req, deps.config.publicUrl, {
        kind,
        query: req.query,
        pageSize: 25,
        load: (page) =>
          deps.customFields.list(
            accountOf(req).id,
            { entityType: entity_type, entityId: entity_id?.toLowerCase(), definitionId: definition_id?.toLowerCase() },
            page,
          ),
      });
    },
  );
}

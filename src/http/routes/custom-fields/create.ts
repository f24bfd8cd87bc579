// POST /v2/custom_fields: sets a value on the record `relationships.entity` names: an upsert on (record, definition)
// that answers 201 both times, as the per-entity POST does.
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { customFieldResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses, includeQuery, WRITE_ERRORS } from '../../schemas.js';
import { createBody, fieldKind, keepBodyText, refuseImpreciseNumbers, TAG } from './shared.js';

export default function createCustomField(app: App, deps: HttpDeps) {
  const kind = fieldKind(deps);
  app.post(
    '/v2/custom_fields',
    {
      preParsing: keepBodyText,
      schema: {
        tags: [TAG],
        summary: 'Set a custom field value on a shipment, container or tracking request',
        description:
          'Creates the value, or overwrites the one the record has for that slug (same id): 201 both times. The slug names a definition of the record’s entity type.',
        querystring: includeQuery,
        body: createBody,
        // 404 for a record the account does not have; 422 for an unknown slug or a value the definition refuses.
        response: {
          201: described(resourceDocument(customFieldResource), 'The custom field'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
        },
      },
    },
    async (req, reply) => {
      refuseImpreciseNumbers(req, req.body.data.attributes, ['value']);
      const include = parseInclude(req.query.include, kind);
      const { attributes, relationships } = req.body.data;
      const field = await deps.customFields.set(accountOf(req).id, relationships.entity.data, attributes.api_slug, attributes.value);
      const included = await resolveIncluded(kind, [field], include);
      return sendDocument(reply, 201, {
        data: kind.render(field),
        ...(included.length ? { included } : {}),
        links: { self: `${deps.config.publicUrl}/v2/custom_fields/${field.id}` },
      });
    },
  );
}

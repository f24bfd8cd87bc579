// POST /v2/{shipments|containers|tracking_requests}/{id}/custom_fields: sets a value by slug (the SDK's and CLI's
// `set-custom-field`): created or overwritten, 201 both times.
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { customFieldResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses, includeQuery, WRITE_ERRORS } from '../../schemas.js';
import { fieldKind, keepBodyText, parentParams, PARENTS, refuseImpreciseNumbers, setBody } from './shared.js';

export default function setCustomFieldOn(app: App, deps: HttpDeps) {
  const kind = fieldKind(deps);
  for (const parent of PARENTS) {
    app.post(
      `/v2/${parent.path}/:${parent.param}/custom_fields`,
      {
        preParsing: keepBodyText,
        schema: {
          tags: [parent.tag],
          summary: `Set a custom field value on a ${parent.type.replace('_', ' ')}`,
          description: 'Creates the value, or overwrites the one there for that slug (same id): 201 both times.',
          params: parentParams(parent.param, false),
          querystring: includeQuery,
          body: setBody,
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
        const { api_slug, value } = req.body.data.attributes;
        const entity = { type: parent.type, id: req.params[parent.param]! };
        const field = await deps.customFields.set(accountOf(req).id, entity, api_slug, value);
        const included = await resolveIncluded(kind, [field], include);
        return sendDocument(reply, 201, {
          data: kind.render(field),
          ...(included.length ? { included } : {}),
          links: { self: `${deps.config.publicUrl}/v2/custom_fields/${field.id}` },
        });
      },
    );
  }
}

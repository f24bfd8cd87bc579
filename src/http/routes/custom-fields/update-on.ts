// PATCH /v2/{shipments|containers|tracking_requests}/{id}/custom_fields/{api_slug}: changes a value that is set.
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { customFieldResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses, includeQuery, WRITE_ERRORS } from '../../schemas.js';
import { fieldKind, keepBodyText, parentParams, PARENTS, refuseImpreciseNumbers, valueBody } from './shared.js';

export default function updateCustomFieldOn(app: App, deps: HttpDeps) {
  const kind = fieldKind(deps);
  for (const parent of PARENTS) {
    app.patch(
      `/v2/${parent.path}/:${parent.param}/custom_fields/:api_slug`,
      {
        preParsing: keepBodyText,
        schema: {
          tags: [parent.tag],
          summary: `Change a custom field value of a ${parent.type.replace('_', ' ')}`,
          description:
            '404 when the record has no value for that slug (POST sets one); 422 for a slug the entity type has no definition for.',
          params: parentParams(parent.param, true),
          querystring: includeQuery,
          body: valueBody,
          response: {
            200: described(resourceDocument(customFieldResource), 'The custom field as changed'),
            ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404),
          },
        },
      },
      async (req, reply) => {
        refuseImpreciseNumbers(req, req.body.data.attributes, ['value']);
        const include = parseInclude(req.query.include, kind);
        const entity = { type: parent.type, id: req.params[parent.param]! };
        const field = await deps.customFields.updateOn(accountOf(req).id, entity, req.params.api_slug!, req.body.data.attributes.value);
        const included = await resolveIncluded(kind, [field], include);
        return sendDocument(reply, 200, {
          data: kind.render(field),
          ...(included.length ? { included } : {}),
          links: { self: selfUrl(deps.config.publicUrl, req) },
        });
      },
    );
  }
}

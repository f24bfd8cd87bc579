// PATCH /v2/custom_fields/{id}: a new value (the only attribute).
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { customFieldResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { API_ERRORS, described, errorResponses, idParams, includeQuery, WRITE_ERRORS } from '../../schemas.js';
import { fieldKind, keepBodyText, refuseImpreciseNumbers, TAG, valueBody } from './shared.js';

export default function updateCustomField(app: App, deps: HttpDeps) {
  const kind = fieldKind(deps);
  app.patch(
    '/v2/custom_fields/:id',
    {
      preParsing: keepBodyText,
      schema: {
        tags: [TAG],
        summary: 'Change a custom field value',
        params: idParams,
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
      const field = await deps.customFields.update(accountOf(req).id, req.params.id, req.body.data.attributes.value);
      const included = await resolveIncluded(kind, [field], include);
      return sendDocument(reply, 200, {
        data: kind.render(field),
        ...(included.length ? { included } : {}),
        links: { self: selfUrl(deps.config.publicUrl, req) },
      });
    },
  );
}

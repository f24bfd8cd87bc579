// GET /v2/custom_fields/{id}; include=definition.
import { customFieldResource, resourceDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, idParams, includeQuery } from '../../schemas.js';
import { sendOne } from '../handlers.js';
import { fieldKind, TAG } from './shared.js';

export default function getCustomField(app: App, deps: HttpDeps) {
  const kind = fieldKind(deps);
  app.get(
    '/v2/custom_fields/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Get a custom field value',
        params: idParams,
        querystring: includeQuery,
        response: { 200: described(resourceDocument(customFieldResource), 'The custom field'), ...errorResponses(400, 404, ...API_ERRORS) },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, {
        kind,
        include: req.query.include,
        load: () => deps.customFields.get(accountOf(req).id, req.params.id),
      }),
  );
}

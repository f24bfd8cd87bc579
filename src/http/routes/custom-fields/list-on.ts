// GET /v2/{shipments|containers|tracking_requests}/{id}/custom_fields: the values on one record, oldest first, 25 a
// page (the SDK's `customFields(id)`); include=definition.
import { customFieldResource, listDocument } from '../../../render/schemas.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';
import { fieldKind, PARENTS, parentParams } from './shared.js';

export default function listCustomFieldsOn(app: App, deps: HttpDeps) {
  const kind = fieldKind(deps);
  for (const parent of PARENTS) {
    app.get(
      `/v2/${parent.path}/:${parent.param}/custom_fields`,
      {
        schema: {
          tags: [parent.tag],
          summary: `List the custom field values of a ${parent.type.replace('_', ' ')}`,
          params: parentParams(parent.param, false),
          querystring: listQuery,
          response: {
            200: described(listDocument(customFieldResource), 'A page of custom field values, with `meta {size, total}`'),
            ...errorResponses(400, 404, ...API_ERRORS),
          },
        },
      },
      async (req, reply) =>
        sendPage(reply, req, deps.config.publicUrl, {
          kind,
          query: req.query,
          pageSize: 25,
          load: (page) => deps.customFields.listOn(accountOf(req).id, { type: parent.type, id: req.params[parent.param]! }, page),
        }),
    );
  }
}

// GET /v2/custom_field_definitions/{definition_id}/options: by position, then value; `page[number]`/`page[size]`
// (25), which the reference's SDK sends here too.
import { customFieldOptionResource, listDocument } from '../../../render/schemas.js';
import { customFieldOptionKind } from '../../../render/custom-fields.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';
import { optionParams, TAG } from './shared.js';

export default function listCustomFieldOptions(app: App, deps: HttpDeps) {
  app.get(
    '/v2/custom_field_definitions/:definition_id/options',
    {
      schema: {
        tags: [TAG],
        summary: 'List the options of a custom field definition',
        params: optionParams,
        querystring: listQuery,
        response: {
          200: described(listDocument(customFieldOptionResource), 'A page of options, by position then value'),
          ...errorResponses(400, 404, ...API_ERRORS),
        },
      },
    },
    async (req, reply) =>
      sendPage(reply, req, deps.config.publicUrl, {
        kind: customFieldOptionKind,
        query: req.query,
        pageSize: 25,
        load: (page) => deps.customFields.listOptions(accountOf(req).id, req.params.definition_id, page),
      }),
  );
}

// DELETE /v2/{shipments|containers|tracking_requests}/{id}/custom_fields/{api_slug}: 204, as the reference answers.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { API_ERRORS, errorResponses, noContent, WRITE_ERRORS } from '../../schemas.js';
import { PARENTS, parentParams } from './shared.js';

export default function deleteCustomFieldOn(app: App, deps: HttpDeps) {
  for (const parent of PARENTS) {
    app.delete(
      `/v2/${parent.path}/:${parent.param}/custom_fields/:api_slug`,
      {
        schema: {
          tags: [parent.tag],
          summary: `Delete a custom field value of a ${parent.type.replace('_', ' ')}`,
          description: '404 when the record has no value for that slug; 422 for a slug the entity type has no definition for.',
          params: parentParams(parent.param, true),
          response: { 204: noContent, ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404) },
        },
      },
      async (req, reply) => {
        await deps.customFields.deleteOn(accountOf(req).id, { type: parent.type, id: req.params[parent.param]! }, req.params.api_slug!);
        return reply.code(204).send(null);
      },
    );
  }
}

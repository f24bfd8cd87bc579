// GET /v2/containers/{id}: every attribute of the container, from the document cache when nothing it was built
// from has changed.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { containerKind } from '../../../render/kinds.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { attachCustomFields } from '../../../render/custom-field-include.js';
import { selfUrl, sendCachedDocument } from '../../reply.js';

import { shipmentDocumentTags } from '../../../services/document-cache.js';
import { containerResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, includeQuery } from '../../schemas.js';

export default function getContainer(app: App, deps: HttpDeps) {
  const kind = containerKind(deps);
  app.get(
    '/v2/containers/:id',
    {
      schema: {
        tags: ['containers'],
        summary: 'Get a container',
        description:
          'Every attribute of the container; `include=shipment` sideloads its shipment; the extension `include=custom_fields` adds the `custom_fields` relationship and the values.',
        params: idParams,
        querystring: includeQuery,
        response: { 200: described(resourceDocument(containerResource), 'The container'), ...errorResponses(400, 404, ...API_ERRORS) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const accountId = accountOf(req).id;
      // A URL answered from the cache was checked when it was built: its include is parsed only then.
      return sendCachedDocument(reply, req, deps.documents, accountId, async () => {
        const include = parseInclude(req.query.include, kind);
        const container = await deps.containers.get(accountId, id);
        if (include.has('custom_fields')) await attachCustomFields(deps.customFields, accountId, 'container', [container]);
        const included = await resolveIncluded(kind, [container], include);
        return {
          document: { data: kind.render(container), included, links: { self: selfUrl(deps.config.publicUrl, req) } },
          tags: shipmentDocumentTags(container.shipment_id, container.tracked_shipment_id, container.shipment_pod_vessel_imo),
        };
      });
    },
  );
}

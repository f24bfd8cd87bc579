import { z } from 'zod';
import { shipmentKind } from '../../../render/kinds.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { selfUrl, sendCachedDocument } from '../../reply.js';
import { shipmentDocumentTags } from '../../../services/document-cache.js';
import { attachPartyRoles } from '../../../render/shipment.js';
import { attachCustomFields } from '../../../render/custom-field-include.js';
import { resourceDocument, shipmentResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, includeQuery } from '../../schemas.js';

export default function getShipment(app: App, deps: HttpDeps) {
  const kind = shipmentKind(deps);
  app.get(
    '/v2/shipments/:id',
    {
      schema: {
        tags: ['shipments'],
        summary: 'Get a shipment',
        description:
          'Includes: `containers`, `pod_terminal`, `port_of_lading`, `port_of_discharge`, `destination`, `destination_terminal`, `customer`, `party_roles` (and `party_roles.party`), and the extension `custom_fields` (the `custom_fields` relationship and the values). `with_party_roles=true` adds the `party_roles` relationship.',
        params: idParams,
        querystring: includeQuery.extend({
          with_party_roles: z.unknown().optional().describe('true adds the party_roles relationship'),
        }),
        response: { 200: described(resourceDocument(shipmentResource), 'The shipment'), ...errorResponses(400, 404, ...API_ERRORS) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const accountId = accountOf(req).id;
      // A URL answered from the cache was checked when it was built: its include is parsed only then.
      return sendCachedDocument(reply, req, deps.documents, accountId, async () => {
        const include = parseInclude(req.query.include, kind);
        const shipment = await deps.shipments.get(accountId, id);
        if (req.query.with_party_roles === 'true' || include.has('party_roles')) await attachPartyRoles(deps, accountId, [shipment]);
        if (include.has('custom_fields')) await attachCustomFields(deps.customFields, accountId, 'shipment', [shipment]);
        const included = await resolveIncluded(kind, [shipment], include);
        return {
          document: { data: kind.render(shipment), included, links: { self: selfUrl(deps.config.publicUrl, req) } },
          tags: shipmentDocumentTags(shipment.id, shipment.tracked_shipment_id, shipment.pod_vessel_imo),
        };
      });
    },
  );
}

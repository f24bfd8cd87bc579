// POST /v2/party_roles: a party's role on a shipment or container.
import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { sendDocument } from '../../reply.js';
import { partyRoleKind } from '../../../render/party-role.js';
import { partyRoleResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, includeQuery, WRITE_ERRORS } from '../../schemas.js';

const ref = (type: string) => z.object({ data: z.object({ type: z.literal(type).optional(), id: z.string() }).nullish() }).nullish();

const body = z.object({
  data: z.object({
    type: z.literal('party_role').optional(),
    attributes: z.object({ role: z.string().nullish() }),
    relationships: z.object({ party: ref('party'), shipment: ref('shipment'), container: ref('container') }).nullish(),
  }),
});

export default function createPartyRole(app: App, deps: HttpDeps) {
  const kind = partyRoleKind(deps.parties);
  app.post(
    '/v2/party_roles',
    {
      schema: {
        tags: ['parties'],
        summary: 'Give a party a role on a shipment or container',
        description:
          '`role`: `shipper`, `consignee`, `customer`, `notify_party` or another name; relationships `party` and exactly one of `shipment` or `container`. ' +
          "A shipment's `customer` role is its customer (`customer_name`, `filter[customer_id]`). `include=party` sideloads the party.",
        querystring: includeQuery,
        body,
        // 400 also for an include it does not take; 422 also for a party, shipment or container the account lacks.
        response: {
          201: described(resourceDocument(partyRoleResource), 'The party role'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const include = parseInclude(req.query.include, kind);
      const { attributes, relationships } = req.body.data;
      const role = await deps.partyRoles.create(accountOf(req).id, {
        role: attributes.role,
        partyId: relationships?.party?.data?.id,
        shipmentId: relationships?.shipment?.data?.id,
        containerId: relationships?.container?.data?.id,
      });
      const included = await resolveIncluded(kind, [role], include);
      return sendDocument(reply, 201, { data: kind.render(role), included, links: { self: `/v2/party_roles/${role.id}` } });
    },
  );
}

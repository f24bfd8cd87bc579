// GET /v2/shipments: the account's shipments, newest first, with the reference API's filters.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { errorBody } from '../../errors.js';
import { parseInclude } from '../../../render/jsonapi.js';
import { parsePage } from '../../jsonapi.js';
import { JSONAPI, sendList } from '../../reply.js';
import { attachPartyRoles, shipmentKind } from '../../../render/shipment.js';
import { listQuery } from '../../schemas.js';
import { parseShipmentQuery } from './filters.js';

export default function listShipmentsRoute(app: App, deps: HttpDeps) {
  const kind = shipmentKind(deps);
  app.get(
    '/v2/shipments',
    {
      schema: {
        tags: ['shipments'],
        summary: 'List shipments, newest first',
        description: [
          'Filters (each bare or as `filter[name]`): `q` (master BL, booking, reference or container number, partial),',
          '`number` (the bill of lading or booking number it was tracked by), `tracking_stopped` (true/false),',
          '`arrival_from` / `arrival_to` (YYYY-MM-DD, inclusive, POD local date of the actual or else estimated arrival),',
          '`port_of_lading` / `port_of_discharge` (UN/LOCODEs, `x[]=` or comma list), `customer_id`, `customer_name`.',
          "Invalid filter values answer 422 with the reference's top-level `error` array (and JSON:API `errors`).",
          '`with_party_roles=true` adds the `party_roles` relationship.',
        ].join(' '),
        querystring: listQuery,
      },
    },
    async (req, reply) => {
      const query = req.query as Record<string, unknown>;
      const include = parseInclude(query.include, kind);
      const page = parsePage(query, 30);
      const { filter, invalid, withPartyRoles } = parseShipmentQuery(query);
      if (invalid.length) {
        // The reference answers invalid shipment filters with `error` (not `errors`); JSON:API clients get both.
        return reply
          .code(422)
          .type(JSONAPI)
          .send({
            error: invalid.map(({ title, detail }) => ({ title, detail })),
            ...errorBody(422, invalid, String(req.id)),
          });
      }
      const { items, total } = await deps.shipments.list(accountOf(req).id, filter, page);
      if (withPartyRoles || include.has('party_roles')) await attachPartyRoles(deps, accountOf(req).id, items);
      return sendList(reply, req, deps.config.publicUrl, { kind, items, total, page, include });
    },
  );
}

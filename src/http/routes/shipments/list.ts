// GET /v2/shipments: the account's shipments, newest first, with the reference API's filters.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { shipmentKind } from '../../../render/kinds.js';
import { type ErrorItem, TidemarkError } from '../../../domain/errors.js';
import { errorBody } from '../../errors.js';
import { sendDocument } from '../../reply.js';
import { attachPartyRoles } from '../../../render/shipment.js';
import { attachCustomFields } from '../../../render/custom-field-include.js';
import { customFieldMatches } from '../../custom-field-filter.js';
import { listDocument, shipmentResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, shipmentFilterErrors } from '../../schemas.js';
import { sendPage } from '../handlers.js';
import { referenceItems, shipmentFilter, shipmentsQuery } from './filters.js';

export default function listShipmentsRoute(app: App, deps: HttpDeps) {
  const kind = shipmentKind(deps);
  app.get(
    '/v2/shipments',
    {
      // A refused query comes to the handler: wrong filter values get the reference's 422, not the schema's 400.
      attachValidation: true,
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
          'Extensions: `filter[custom_fields][<api_slug>]=<value>` (422 for an unknown slug or a value its type cannot read) and',
          '`include=custom_fields` (the `custom_fields` relationship and the values in `included`).',
        ].join(' '),
        querystring: shipmentsQuery,
        response: {
          200: described(listDocument(shipmentResource), 'A page of shipments'),
          // 400: a parameter that is not even a value (an object, a name given twice), or include and paging.
          ...errorResponses(400, ...API_ERRORS),
          // Also a filter[custom_fields][…] the account's definitions cannot read.
          422: shipmentFilterErrors,
        },
      },
    },
    async (req, reply) => {
      // The reference answers invalid shipment filters with `error` (not `errors`); JSON:API clients get both.
      const refuse = (items: ErrorItem[]) =>
        sendDocument(reply, 422, {
          error: items.map(({ title, detail }) => ({ title, detail })),
          ...errorBody(422, items, String(req.id)),
        });
      const refused = req.validationError;
      if (refused) {
        const items = referenceItems(refused.validation);
        if (!items) {
          // Something is not even a value: the schema's 400, naming only that.
          refused.validation = refused.validation.filter((issue: Parameters<typeof referenceItems>[0][number]) => !referenceItems([issue]));
          throw refused;
        }
        return refuse(items);
      }
      const accountId = accountOf(req).id;
      const filter = shipmentFilter(req.query);
      try {
        const customFields = await customFieldMatches(deps.customFields, accountId, 'Shipment', req.query.filter?.custom_fields);
        if (customFields.length) filter.customFields = customFields;
      } catch (err) {
        // A filter[custom_fields][…] the account's definitions cannot read: the same 422 as the other filters.
        if (err instanceof TidemarkError && err.code === 'validation_failed') return refuse(err.items);
        throw err;
      }
      const withPartyRoles = req.query.with_party_roles === 'true';
      return sendPage(reply, req, deps.config.publicUrl, {
        kind,
        query: req.query,
        pageSize: 30,
        load: async (page, include) => {
          const found = await deps.shipments.list(accountId, filter, page);
          if (withPartyRoles || include?.has('party_roles')) await attachPartyRoles(deps, accountId, found.items);
          if (include?.has('custom_fields')) await attachCustomFields(deps.customFields, accountId, 'shipment', found.items);
          return found;
        },
      });
    },
  );
}

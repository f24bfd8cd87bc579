// GET /v2/containers: the account's containers, newest first; `filter[number]` typed any way.
import { isUuid } from '../../../lib/ids.js';
import { containerKind } from '../../../render/kinds.js';
import type { ContainerFilter } from '../../../services/containers.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';

import { checkedValue, filterParams, oneValue } from '../../query.js';
import { attachCustomFields } from '../../../render/custom-field-include.js';
import { customFieldMatches, customFieldsFilter } from '../../custom-field-filter.js';
import { containerResource, listDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';

const querystring = listQuery.extend({
  filter: filterParams({
    number: oneValue().optional().describe('A container number, with or without spaces and dashes, any case'),
    customer_id: checkedValue(isUuid, 'must be a party id (UUID)').describe('The id of its customer party'),
    customer_name: oneValue().optional().describe("Part of its customer's name, any case"),
    custom_fields: customFieldsFilter,
  }),
});

export default function listContainers(app: App, deps: HttpDeps) {
  const kind = containerKind(deps);
  app.get(
    '/v2/containers',
    {
      schema: {
        tags: ['containers'],
        summary: 'List containers, newest first',
        description:
          "`filter[number]` finds a container by its number, with or without spaces and dashes; `filter[customer_id]` and `filter[customer_name]` (partial, any case) by its customer (its own customer role, else its shipment's). Extensions: `filter[custom_fields][<api_slug>]=<value>` (422 for an unknown slug or a value its type cannot read) and `include=custom_fields`.",
        querystring,
        response: {
          200: described(listDocument(containerResource), 'A page of containers'),
          // 422: a filter[custom_fields][…] the account's definitions cannot read.
          ...errorResponses(400, ...API_ERRORS, 422),
        },
      },
    },
    async (req, reply) => {
      const { number, customer_id, customer_name, custom_fields } = req.query.filter ?? {};
      const accountId = accountOf(req).id;
      const customFields = await customFieldMatches(deps.customFields, accountId, 'Container', custom_fields);
      const filter: ContainerFilter = {
        ...(number ? { number } : {}),
        ...(customer_id ? { customerId: customer_id.toLowerCase() } : {}),
        ...(customer_name ? { customerName: customer_name } : {}),
        ...(customFields.length ? { customFields } : {}),
      };
      return sendPage(reply, req, deps.config.publicUrl, {
        kind,
        query: req.query,
        pageSize: 30,
        load: async (page, include) => {
          const found = await deps.containers.list(accountId, filter, page);
          if (include?.has('custom_fields')) await attachCustomFields(deps.customFields, accountId, 'container', found.items);
          return found;
        },
      });
    },
  );
}

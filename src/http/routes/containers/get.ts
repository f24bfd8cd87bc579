// GET /v2/containers/{id} and GET /v2/containers/{id}/raw_events.
import { badRequest } from '../../../domain/errors.js';
import { isUuid } from '../../../lib/ids.js';
import type { ContainerFilter } from '../../../services/containers.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { parsePage } from '../../jsonapi.js';
import { selfUrl, sendCachedDocument, sendDocument, sendList } from '../../reply.js';
import { containerKind, rawEventKind } from '../../../render/container.js';
import { shipmentDocumentTags } from '../../../services/document-cache.js';
import { transportEventKind } from '../../../render/transport-event.js';
import { filtersOf, singleValue } from '../../query.js';
import { includeQuery, listQuery } from '../../schemas.js';

export default function containerRoutes(app: App, deps: HttpDeps) {
  const kind = containerKind(deps);
  app.get(
    '/v2/containers/:id',
    {
      schema: {
        tags: ['containers'],
        summary: 'Get a container',
        description: 'Every attribute of the container; `include=shipment` sideloads its shipment.',
        querystring: includeQuery,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const accountId = accountOf(req).id;
      // A URL answered from the cache was checked when it was built: its include is parsed only then.
      return sendCachedDocument(reply, req, deps.documents, accountId, async () => {
        const include = parseInclude(req.query.include, kind);
        const container = await deps.containers.get(accountId, id);
        const included = await resolveIncluded(kind, [container], include);
        return {
          document: { data: kind.render(container), included, links: { self: selfUrl(deps.config.publicUrl, req) } },
          tags: shipmentDocumentTags(container.shipment_id, container.tracked_shipment_id, container.shipment_pod_vessel_imo),
        };
      });
    },
  );
  app.get(
    '/v2/containers/:id/raw_events',
    {
      schema: {
        tags: ['containers'],
        summary: "A container's raw events",
        description:
          'What each source (shipping line, terminal, railroad) said about the container in its latest answer, in its own words and in time order, estimated future events included.',
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const { container, events } = await deps.containers.rawEvents(accountOf(req).id, id);
      return sendDocument(reply, 200, {
        data: events.map((e) => rawEventKind.render({ ...e, containerId: container.id })),
        links: { self: selfUrl(deps.config.publicUrl, req) },
      });
    },
  );
}

/** GET /v2/containers/{id}/transport_events: newest first by when each happened (transportEventOrder), paged. */
export function containerTransportEvents(app: App, deps: HttpDeps) {
  const kind = transportEventKind(deps);
  app.get(
    '/v2/containers/:id/transport_events',
    {
      schema: {
        tags: ['containers'],
        summary: "A container's transport events",
        description:
          'Its stored transport events (milestones, estimates, pickup changes), newest first by `timestamp` (pickup changes, whose `timestamp` is the new date, by `observed_at`: when Tidemark saw them); events without either come last, ties newest stored first. The reference API orders by `created_at` instead (docs/extensions.md).',
        querystring: listQuery,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const query = req.query as Record<string, unknown>;
      const include = parseInclude(query.include, kind);
      const page = parsePage(query, 30);
      const { items, total } = await deps.containers.transportEvents(accountOf(req).id, id, page);
      return sendList(reply, req, deps.config.publicUrl, { kind, items, total, page, include });
    },
  );
}

/** GET /v2/containers: the account's containers, newest first; `filter[number]` typed any way. */
export function listContainersRoute(app: App, deps: HttpDeps) {
  const kind = containerKind(deps);
  app.get(
    '/v2/containers',
    {
      schema: {
        tags: ['containers'],
        summary: 'List containers, newest first',
        description:
          "`filter[number]` finds a container by its number, with or without spaces and dashes; `filter[customer_id]` and `filter[customer_name]` (partial, any case) by its customer (its own customer role, else its shipment's).",
        querystring: listQuery,
      },
    },
    async (req, reply) => {
      const query = req.query as Record<string, unknown>;
      const include = parseInclude(query.include, kind);
      const page = parsePage(query, 30);
      const { items, total } = await deps.containers.list(accountOf(req).id, containerFilter(query), page);
      return sendList(reply, req, deps.config.publicUrl, { kind, items, total, page, include });
    },
  );
}

/** `filter[number]`, `filter[customer_id]`, `filter[customer_name]`; a malformed value is a 400 naming it. */
function containerFilter(query: Record<string, unknown>): ContainerFilter {
  const filters = filtersOf(query);
  const text = (name: string) => singleValue(filters[name], `filter[${name}]`);
  const filter: ContainerFilter = {};
  const number = text('number');
  if (number) filter.number = number;
  const customerId = text('customer_id');
  if (customerId) {
    if (!isUuid(customerId)) throw badRequest('filter[customer_id] must be a party id (UUID)', { parameter: 'filter[customer_id]' });
    filter.customerId = customerId.toLowerCase();
  }
  const customerName = text('customer_name');
  if (customerName) filter.customerName = customerName;
  return filter;
}

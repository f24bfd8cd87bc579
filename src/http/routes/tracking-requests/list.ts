// GET /v2/tracking_requests: newest first, with the reference's filters; shipments included by default.
import { badRequest } from '../../../domain/errors.js';
import type { TrackingRequestFilter, TrackingRequestStatus } from '../../../services/tracking-requests.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { parseInclude } from '../../../render/jsonapi.js';
import { paginationMeta, parsePage } from '../../jsonapi.js';
import { sendList } from '../../reply.js';
import { trackingRequestKind } from '../../../render/tracking-request.js';
import { filtersOf, singleValue } from '../../query.js';
import { listQuery } from '../../schemas.js';

const STATUSES: TrackingRequestStatus[] = ['pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped'];
const TYPES = ['bill_of_lading', 'booking_number', 'container'] as const;

export default function listTrackingRequests(app: App, deps: HttpDeps) {
  const kind = trackingRequestKind(deps);
  app.get(
    '/v2/tracking_requests',
    {
      schema: {
        tags: ['tracking_requests'],
        summary: 'List tracking requests, newest first',
        description:
          'Filters: `q` (request or reference number), `filter[request_number]`, `filter[status]` (comma list; `succeeded` = `created`), `filter[scac]`, `filter[request_type]`, `filter[created_at][start|end]`, `filter[updated_at][start|end]` (ISO 8601). Shipments (`tracked_object`) are included by default.',
        querystring: listQuery,
      },
    },
    async (req, reply) => {
      const query = req.query as Record<string, unknown>;
      const include = parseInclude(query.include ?? 'tracked_object', kind);
      const page = parsePage(query, 30);
      const filter = parseFilter(query);
      const { items, total } = await deps.trackingRequests.list(accountOf(req).id, filter, page);
      const meta = { size: items.length, total, pagination: paginationMeta(page, total) };
      return sendList(reply, req, deps.config.publicUrl, { kind, items, total, page, include, meta });
    },
  );
}

function parseFilter(query: Record<string, unknown>): TrackingRequestFilter {
  const raw = filtersOf(query);
  const text = (name: string, value: unknown) => singleValue(value, name);
  const filter: TrackingRequestFilter = {};
  const q = text('q', query.q);
  if (q) filter.q = q;
  const number = text('filter[request_number]', raw.request_number);
  if (number) filter.requestNumber = number;
  const scac = text('filter[scac]', raw.scac);
  if (scac) filter.scac = scac;
  const status = text('filter[status]', raw.status);
  if (status) {
    filter.statuses = status.split(',').map((s) => {
      const v = s.trim() === 'succeeded' ? 'created' : (s.trim() as TrackingRequestStatus);
      if (!STATUSES.includes(v))
        throw badRequest(`filter[status] must be one of ${STATUSES.join(', ')} (or succeeded)`, { parameter: 'filter[status]' });
      return v;
    });
  }
  const type = text('filter[request_type]', raw.request_type);
  if (type) {
    if (!(TYPES as readonly string[]).includes(type))
      throw badRequest(`filter[request_type] must be one of ${TYPES.join(', ')}`, { parameter: 'filter[request_type]' });
    filter.requestType = type as (typeof TYPES)[number];
  }
  for (const field of ['created_at', 'updated_at'] as const) {
    const range = raw[field];
    if (range === undefined) continue;
    if (typeof range !== 'object' || range === null)
      throw badRequest(`filter[${field}] takes [start] and [end]`, { parameter: `filter[${field}]` });
    for (const edge of ['start', 'end'] as const) {
      const name = `filter[${field}][${edge}]`;
      const value = text(name, (range as Record<string, unknown>)[edge]);
      if (!value) continue;
      const at = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? new Date(value) : null;
      if (!at || Number.isNaN(at.getTime())) throw badRequest(`${name} must be an ISO 8601 date-time`, { parameter: name });
      const key = `${field === 'created_at' ? 'created' : 'updated'}${edge === 'start' ? 'From' : 'To'}` as const;
      // An end is inclusive to the precision it was given in (a date: the whole day; seconds: that second).
      filter[key] = edge === 'end' ? new Date(at.getTime() + precisionMs(value) - 1) : at;
    }
  }
  return filter;
}

/** How much time the last written unit of an ISO 8601 value spans: a day, a minute, a second or less. */
function precisionMs(value: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 86_400_000;
  const time = /[T ](\d{2}):(\d{2})(:\d{2})?(\.(\d+))?/.exec(value);
  if (!time?.[3]) return 60_000;
  if (!time[5]) return 1000;
  return Math.max(1, 10 ** (3 - time[5].length));
}

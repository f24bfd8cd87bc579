// GET /v2/tracking_requests: newest first, with the reference's filters; shipments included by default.
import { z } from 'zod';
import type { TrackingRequestFilter, TrackingRequestStatus } from '../../../services/tracking-requests.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { paginationMeta } from '../../jsonapi.js';
import { trackingRequestKind } from '../../../render/tracking-request.js';
import { filterParams, oneOf, oneValue } from '../../query.js';
import { listDocument, trackingRequestResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, listQuery } from '../../schemas.js';
import { sendPage } from '../handlers.js';
import { withheldInclude } from '../../api-trial-gate.js';

const STATUSES = ['pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped'] as const satisfies TrackingRequestStatus[];
const TYPES = ['bill_of_lading', 'booking_number', 'container'] as const;

const ISO_8601 = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `filter[status]`: a comma list of statuses (`succeeded` is `created`). */
const statuses = oneValue()
  .transform((v, ctx): TrackingRequestStatus[] | undefined => {
    if (v === '') return undefined;
    const list = v.split(',').map((s) => (s.trim() === 'succeeded' ? 'created' : s.trim()));
    const known: readonly string[] = STATUSES;
    if (list.every((s): s is TrackingRequestStatus => known.includes(s))) return list;
    ctx.addIssue({ code: 'custom', message: `must be one of ${STATUSES.join(', ')} (or succeeded)`, input: v });
    return z.NEVER;
  })
  .optional()
  .describe(`A comma list of ${STATUSES.join(', ')} (or succeeded)`);

/**
 * One edge of `filter[created_at]` or `filter[updated_at]`: an ISO 8601 date or date-time. An end is inclusive to
 * the precision it was given in (a date: the whole day; seconds: that second).
 */
const edge = (end: boolean) =>
  oneValue()
    .transform((v, ctx): Date | undefined => {
      if (v === '') return undefined;
      const at = ISO_8601.test(v) ? new Date(v) : null;
      if (!at || Number.isNaN(at.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date-time', input: v });
        return z.NEVER;
      }
      return end ? new Date(at.getTime() + precisionMs(v) - 1) : at;
    })
    .optional()
    .describe('ISO 8601 date or date-time');

const range = z
  .object({ start: edge(false), end: edge(true) }, { error: 'takes [start] and [end]' })
  .catchall(z.unknown())
  .optional();

const querystring = listQuery.extend({
  q: oneValue().optional().describe('A request or reference number'),
  filter: filterParams({
    request_number: oneValue().optional(),
    status: statuses,
    scac: oneValue().optional(),
    request_type: oneOf(TYPES),
    created_at: range,
    updated_at: range,
  }),
});

export default function listTrackingRequests(app: App, deps: HttpDeps) {
  const kind = trackingRequestKind(deps);
  app.get(
    '/v2/tracking_requests',
    {
      schema: {
        tags: ['tracking_requests'],
        summary: 'List tracking requests, newest first',
        description:
          'Filters: `q` (request or reference number), `filter[request_number]`, `filter[status]` (comma list; `succeeded` = `created`), `filter[scac]`, `filter[request_type]`, `filter[created_at][start|end]`, `filter[updated_at][start|end]` (ISO 8601). Shipments (`tracked_object`) are included by default, but not for a free account without an API trial (docs/api.md "Plans and the API trial").',
        querystring,
        response: {
          200: described(listDocument(trackingRequestResource), 'A page of tracking requests, with `meta.pagination`'),
          ...errorResponses(400, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const f = req.query.filter ?? {};
      const filter: TrackingRequestFilter = {
        ...(req.query.q ? { q: req.query.q } : {}),
        ...(f.request_number ? { requestNumber: f.request_number } : {}),
        ...(f.scac ? { scac: f.scac } : {}),
        ...(f.status ? { statuses: f.status } : {}),
        ...(f.request_type ? { requestType: f.request_type } : {}),
        ...(f.created_at?.start ? { createdFrom: f.created_at.start } : {}),
        ...(f.created_at?.end ? { createdTo: f.created_at.end } : {}),
        ...(f.updated_at?.start ? { updatedFrom: f.updated_at.start } : {}),
        ...(f.updated_at?.end ? { updatedTo: f.updated_at.end } : {}),
      };
      return sendPage(reply, req, deps.config.publicUrl, {
        kind,
        // While an API trial is needed the shipments are not included (http/api-trial-gate.ts).
        query: { ...req.query, include: withheldInclude(req, req.query.include ?? 'tracked_object') },
        defaultInclude: 'tracked_object',
        pageSize: 30,
        load: (page) => deps.trackingRequests.list(accountOf(req).id, filter, page),
        meta: (page, items, total) => ({ size: items.length, total, pagination: paginationMeta(page, total) }),
      });
    },
  );
}
/** How much time the last written unit of an ISO 8601 value spans: a day, a minute, a second or less. */
function precisionMs(value: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 86_400_000;
  const time = /[T ](\d{2}):(\d{2})(:\d{2})?(\.(\d+))?/.exec(value);
  if (!time?.[3]) return 60_000;
  if (!time[5]) return 1000;
  return Math.max(1, 10 ** (3 - time[5].length));
}

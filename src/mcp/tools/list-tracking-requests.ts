// list_tracking_requests: the account's tracking requests, newest first, with the REST API's filters
// (given as `filters`, with or without the `filter[...]` wrapping) plus status and request_type.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RequestType, TrackingRequestFilter, TrackingRequestStatus } from '../../services/tracking-requests.js';
import type { ToolContext } from '../context.js';
import { kinds, renderWith } from '../render.js';
import { guarded, ok, pageOf, pagingInput, pagingOf, pagingOutput, READ_ONLY, resourceOutput, toolError } from '../results.js';

const STATUSES = [
  'pending',
  'awaiting_manifest',
  'created',
  'failed',
  'tracking_stopped',
] as const satisfies readonly TrackingRequestStatus[];
const REQUEST_TYPES = ['bill_of_lading', 'booking_number', 'container'] as const satisfies readonly RequestType[];
const FILTER_KEYS = [
  'q',
  'request_number',
  'status',
  'scac',
  'request_type',
  'created_at[start]',
  'created_at[end]',
  'updated_at[start]',
  'updated_at[end]',
] as const;

/** `filter[created_at][start]` → `created_at[start]`, `filter[status]` → `status`; other keys as given. */
export function filterKey(raw: string): string {
  const key = raw.trim();
  if (!key.startsWith('filter[')) return key;
  const inner = key.slice('filter['.length).replace('][', '[');
  return inner.includes('[') ? inner : inner.replace(/\]$/, '');
}

export function registerListTrackingRequests(server: McpServer, { deps, account }: ToolContext) {
  const { trackingRequest: kind } = kinds(deps);
  server.registerTool(
    'list_tracking_requests',
    {
      title: 'List tracking requests',
      description: `The account's tracking requests, newest first, with their status (${STATUSES.join(', ')}) and why failed ones failed. \`filters\` takes ${FILTER_KEYS.join(', ')} (also written filter[...]); dates are ISO 8601.`,
      inputSchema: {
        filters: z
          .record(z.string(), z.string())
          .optional()
          .describe(`Any of: ${FILTER_KEYS.join(', ')}`),
        status: z.enum(STATUSES).optional().describe('Only requests in this status'),
        request_type: z.enum(REQUEST_TYPES).optional().describe('Only requests by this kind of number'),
        ...pagingInput,
      },
      outputSchema: { items: z.array(resourceOutput), included: z.array(resourceOutput), meta: pagingOutput },
      annotations: READ_ONLY,
    },
    (input) =>
      guarded('No tracking requests.', async () => {
        const page = pageOf(input);
        const filter: TrackingRequestFilter = {};
        const problems: string[] = [];
        const date = (key: string, value: string): Date | undefined => {
          const d = new Date(value);
          if (Number.isNaN(d.getTime())) problems.push(`${key} must be an ISO 8601 date-time`);
          return Number.isNaN(d.getTime()) ? undefined : d;
        };
        for (const [raw, value] of Object.entries(input.filters ?? {})) {
          const key = filterKey(raw);
          if (key.startsWith('page[') || key === 'page' || key === 'page_size') continue;
          const v = value.trim();
          if (!v) continue;
          switch (key) {
            case 'q':
              filter.q = v;
              break;
            case 'request_number':
              filter.requestNumber = v;
              break;
            case 'scac':
              filter.scac = v;
              break;
            case 'status': {
              const statuses = v.split(',').map((s) => s.trim().toLowerCase());
              const bad = statuses.filter((s) => !(STATUSES as readonly string[]).includes(s));
              if (bad.length) problems.push(`status must be one of ${STATUSES.join(', ')}`);
              else filter.statuses = statuses as TrackingRequestStatus[];
              break;
            }
            case 'request_type':
              if ((REQUEST_TYPES as readonly string[]).includes(v)) filter.requestType = v as RequestType;
              else problems.push(`request_type must be one of ${REQUEST_TYPES.join(', ')}`);
              break;
            case 'created_at[start]':
              filter.createdFrom = date(raw, v);
              break;
            case 'created_at[end]':
              filter.createdTo = date(raw, v);
              break;
            case 'updated_at[start]':
              filter.updatedFrom = date(raw, v);
              break;
            case 'updated_at[end]':
              filter.updatedTo = date(raw, v);
              break;
            default:
              problems.push(`unknown filter ${raw}`);
          }
        }
        if (problems.length) return toolError(`${problems.join('; ')} — supported filters: ${FILTER_KEYS.join(', ')}.`);
        if (input.status) filter.statuses = [input.status];
        if (input.request_type) filter.requestType = input.request_type;
        for (const k of Object.keys(filter) as (keyof TrackingRequestFilter)[]) if (filter[k] === undefined) delete filter[k];
        const { items, total } = await deps.trackingRequests.list(account.id, filter, page);
        const { data, included } = await renderWith(kind, items, []);
        const meta = pagingOf(page, total);
        return ok(`${total} tracking request(s) match; page ${meta.page} of ${meta.total_pages} shows ${items.length}.`, {
          items: data,
          included,
          meta,
        });
      }),
  );
}

// The shipments list's search and filters, as kept in the page URL (so links and Back work) and as sent to
// GET /v2/shipments. A custom-field filter is `cf.<api_slug>=<value>` (lib/custom-fields-query.ts).
import type { Query } from '../../lib/api';
import { type CustomFilters, customFilterQuery, customFiltersOf } from '../../lib/custom-fields-query';

export interface ShipmentFilters {
  q: string;
  /** SCAC. */
  carrier: string;
  /** UN/LOCODEs, comma separated. */
  pod: string;
  /** A container `current_status`. */
  status: string;
  /** YYYY-MM-DD, inclusive: arrival at the POD (actual, else estimated) in the POD's calendar. */
  since: string;
  until: string;
  /** '' any, 'false' still tracked, 'true' stopped. */
  stopped: '' | 'true' | 'false';
  /** Custom-field filters: the value text by `api_slug`. */
  custom: CustomFilters;
}

export const FILTER_KEYS = ['q', 'carrier', 'pod', 'status', 'since', 'until', 'stopped'] as const;

export function filtersOf(search: URLSearchParams): ShipmentFilters {
  const stopped = search.get('stopped');
  return {
    q: search.get('q') ?? '',
    carrier: search.get('carrier') ?? '',
    pod: search.get('pod') ?? '',
    status: search.get('status') ?? '',
    since: search.get('since') ?? '',
    until: search.get('until') ?? '',
    stopped: stopped === 'true' || stopped === 'false' ? stopped : '',
    custom: customFiltersOf(search),
  };
}

/** The filters other than the search text that are set. */
export const activeFilterCount = (f: ShipmentFilters) => FILTER_KEYS.filter((k) => k !== 'q' && f[k]).length + Object.keys(f.custom).length;

/** The query of GET /v2/shipments for these filters. */
export function apiQuery(f: ShipmentFilters): Query {
  return {
    q: f.q || undefined,
    carrier: f.carrier || undefined,
    port_of_discharge: f.pod ? f.pod.toUpperCase().replace(/\s+/g, '') : undefined,
    status: f.status || undefined,
    arrival_from: f.since || undefined,
    arrival_to: f.until || undefined,
    tracking_stopped: f.stopped || undefined,
    ...customFilterQuery(f.custom),
  };
}

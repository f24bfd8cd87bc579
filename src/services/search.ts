// GET /v2/search: an account's shipments, containers and tracking requests by any of their numbers or
// reference numbers, exact or partial, ranked shipments → containers → tracking requests.
import { normalizeContainerNumber } from '../domain/container-number.js';
import { badRequest } from '../domain/errors.js';
import { containsPattern } from '../lib/lists.js';
import type { Db } from '../storage/db.js';
import {
  type SearchHit,
  type SearchTerms,
  searchContainers,
  searchShipments,
  searchTrackingRequests,
} from '../storage/repositories/search.js';

export type { SearchEntityType, SearchHit } from '../storage/repositories/search.js';

/** The reference API answers at most this many results, and has no paging for them. */
export const SEARCH_LIMIT = 25;
/** Longer input is no number anyone tracks; refusing it keeps the substring scans cheap. */
export const MAX_QUERY_LENGTH = 200;

/** The exact keys and LIKE patterns for `query` (already trimmed and not blank). */
export function searchTerms(query: string): SearchTerms {
  const number = normalizeContainerNumber(query);
  return {
    keys: number ? [query, number] : [query],
    pattern: containsPattern(query),
    numberPattern: number ? containsPattern(number) : null,
  };
}

export class SearchService {
  constructor(private readonly db: Db) {}

  /**
   * Up to 25 hits in this account: shipments, then containers, then tracking requests; within each, exact
   * matches before partial ones, newest first. A tracking request whose number is the bill of lading of a
   * shipment among the results is left out: the shipment stands for it.
   */
  async search(accountId: string, query: string): Promise<SearchHit[]> {
    const text = query.trim();
    if (!text) throw badRequest("query can't be blank", { parameter: 'query' });
    if (text.length > MAX_QUERY_LENGTH) throw badRequest(`query must be at most ${MAX_QUERY_LENGTH} characters`, { parameter: 'query' });
    const terms = searchTerms(text);
    const shipments = await searchShipments(this.db, accountId, terms, SEARCH_LIMIT);
    const containers = await searchContainers(this.db, accountId, terms, SEARCH_LIMIT - shipments.length);
    const left = SEARCH_LIMIT - shipments.length - containers.length;
    const requests = await searchTrackingRequests(
      this.db,
      accountId,
      terms,
      left,
      shipments.map((s) => s.number),
    );
    return [...shipments, ...containers, ...requests];
  }

  /**
   * Where the deep link `/shipments/find?q=` goes: (1) the shipment of the container with exactly this number,
   * with that container selected; (2) a shipment with exactly this bill of lading, booking or reference number
   * (or a container with this reference number); (3) the first partial container match; (4) the first partial
   * shipment match; (5) the shipments list searching for it.
   */
  async deepLink(accountId: string, query: string): Promise<string> {
    const text = query.trim();
    const hits = text.length > MAX_QUERY_LENGTH ? [] : await this.search(accountId, text);
    const number = normalizeContainerNumber(text);
    const containers = hits.filter((h) => h.entity_type === 'cargo');
    const shipments = hits.filter((h) => h.entity_type === 'shipment');
    const toContainer = (h: SearchHit) => `/shipments/${h.shipment_id}?container=${h.id}`;
    const exactBox = containers.find((h) => h.number === number);
    if (exactBox) return toContainer(exactBox);
    const exactShipment = shipments.find((h) => h.exact);
    if (exactShipment) return `/shipments/${exactShipment.id}`;
    const exactRef = containers.find((h) => h.exact);
    if (exactRef) return toContainer(exactRef);
    if (containers[0]) return toContainer(containers[0]);
    if (shipments[0]) return `/shipments/${shipments[0].id}`;
    return `/shipments?q=${encodeURIComponent(text)}`;
  }
}

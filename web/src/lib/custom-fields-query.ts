// The custom-field choices of a list, as kept in the page URL (so links and Back work, like the list's other filters)
// and as sent to GET /v2/shipments: a filter is `cf.<api_slug>=<value>` in the page URL and
// `filter[custom_fields][<api_slug>]=<value>` to the API; the shown column is `cf_column=<api_slug>`, fed by
// `include=custom_fields`.
import type { Query } from './api';
import {
  type Converted,
  type CustomFieldAttributes,
  type Definition,
  type Draft,
  datetimeLocalOf,
  displayOf,
  valueFromDraft,
} from './custom-fields';
import type { Included, Resource } from './jsonapi';

export const FILTER_PREFIX = 'cf.';
export const COLUMN_PARAM = 'cf_column';
const SLUG = /^[a-z][a-z0-9_]{0,62}$/;

/** Filter text by `api_slug`. */
export type CustomFilters = Record<string, string>;

/** The custom-field filters a page URL holds (well-formed slugs with a value), in slug order. */
export function customFiltersOf(search: URLSearchParams): CustomFilters {
  const out: CustomFilters = {};
  for (const [key, value] of search) {
    if (!key.startsWith(FILTER_PREFIX)) continue;
    const slug = key.slice(FILTER_PREFIX.length);
    if (SLUG.test(slug) && value.trim() && !(slug in out)) out[slug] = value.trim();
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The `setQuery` changes that make the URL hold exactly `next`: the filters that go are set to null. */
export function customFilterParams(current: URLSearchParams, next: CustomFilters): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const key of current.keys()) if (key.startsWith(FILTER_PREFIX)) out[key] = null;
  for (const [slug, value] of Object.entries(next)) if (SLUG.test(slug) && value.trim()) out[FILTER_PREFIX + slug] = value.trim();
  return out;
}

/** The query parameters of GET /v2/shipments (or /v2/containers) for these filters. */
export function customFilterQuery(filters: CustomFilters): Query {
  const out: Query = {};
  for (const [slug, value] of Object.entries(filters)) out[`filter[custom_fields][${slug}]`] = value;
  return out;
}

/** The column a page URL asks for (a well-formed slug), else null. */
export function columnOf(search: URLSearchParams): string | null {
  const slug = search.get(COLUMN_PARAM);
  return slug && SLUG.test(slug) ? slug : null;
}

/**
 * The filter text for what a filter input holds, as the definition's data type reads it: `true`/`false`, a number,
 * `YYYY-MM-DD`, a UTC instant, an option's value (for `enum_multi`, the one option the values must contain), a
 * reference's id.
 */
export function filterTextOf(def: Pick<Definition, 'dataType' | 'referenceType' | 'options'>, draft: Draft): Converted {
  const single = Array.isArray(draft) ? (draft[0] ?? '') : draft;
  if (def.dataType === 'enum_multi') return single ? { ok: true, value: single } : { ok: false, message: 'Choose an option.' };
  const converted = valueFromDraft(def, single);
  if (!converted.ok) return converted;
  const v = converted.value;
  if (typeof v === 'object' && !Array.isArray(v)) return { ok: true, value: v.id };
  return { ok: true, value: String(v) };
}

/** What a filter input starts from for the filter text in the URL. */
export function filterDraftOf(def: Pick<Definition, 'dataType'>, text: string): string {
  return def.dataType === 'datetime' ? datetimeLocalOf(text) || text : text;
}

/** The display value of one custom field of a listed resource (from `include=custom_fields`), else null. */
export function includedDisplayValue(resource: Resource<unknown>, included: Included, slug: string): string | null {
  return displayOf(included.many<CustomFieldAttributes>(resource, 'custom_fields').find((f) => f.attributes.api_slug === slug)?.attributes);
}

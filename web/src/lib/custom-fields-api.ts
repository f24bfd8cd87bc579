// The custom-field calls the pages make: the account's definitions of an entity type (every page, with their
// options), an entity's values, and setting (POST, an upsert) or clearing (DELETE) one value.
import { api } from './api';
import {
  type CustomFieldAttributes,
  type CustomFieldValue,
  type Definition,
  type DefinitionAttributes,
  definitionsOf,
  type EntityType,
  valuesBySlug,
} from './custom-fields';
import type { Doc, ListDoc } from './jsonapi';

const PAGE_SIZE = 100;
/** More definitions than this per entity type are not shown (the API's limit is lower). */
const MAX_PAGES = 10;

/** Every definition of an entity type, in the API's order. */
export async function loadDefinitions(entityType: EntityType, signal?: AbortSignal): Promise<Definition[]> {
  const out: Definition[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const doc = await api.get<ListDoc<DefinitionAttributes>>('/v2/custom_field_definitions', {
      ...(signal ? { signal } : {}),
      query: { 'filter[entity_type]': entityType, include: 'options', 'page[number]': page, 'page[size]': PAGE_SIZE },
    });
    out.push(...definitionsOf(doc));
    const total = doc.meta?.total;
    if (doc.data.length < PAGE_SIZE || (typeof total === 'number' && out.length >= total) || !doc.links?.next) break;
  }
  return out;
}

/** `containers` or `shipments`: the collection an entity's custom fields hang under. */
export type EntityPath = 'containers' | 'shipments';

const fieldsPath = (entity: EntityPath, id: string) => `/v2/${entity}/${encodeURIComponent(id)}/custom_fields`;

/** An entity's values by `api_slug`. */
export async function loadValues(entity: EntityPath, id: string, signal?: AbortSignal): Promise<Map<string, CustomFieldAttributes>> {
  const doc = await api.get<ListDoc<CustomFieldAttributes>>(fieldsPath(entity, id), {
    ...(signal ? { signal } : {}),
    query: { 'page[size]': PAGE_SIZE },
  });
  return valuesBySlug(doc.data);
}

/** Sets one value (created or replaced); answers the stored field with its display value. */
export async function saveValue(entity: EntityPath, id: string, slug: string, value: CustomFieldValue): Promise<CustomFieldAttributes> {
  const doc = await api.post<Doc<CustomFieldAttributes>>(fieldsPath(entity, id), {
    data: { type: 'custom_field', attributes: { api_slug: slug, value } },
  });
  return doc.data.attributes;
}

/** Removes one value. */
export async function clearValue(entity: EntityPath, id: string, slug: string): Promise<void> {
  await api.delete(`${fieldsPath(entity, id)}/${encodeURIComponent(slug)}`);
}

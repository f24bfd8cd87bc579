// `include=custom_fields` on shipments and containers (an extension: docs/extensions.md): the record's values as a
// `custom_fields` relationship and the `custom_field` resources in `included`, rendered by render/custom-fields.ts.
// The relationship is on the wire only when the request includes it: a route puts the values on its records
// (`attachCustomFields`) before rendering, as `party_roles` does; included records get them from the include itself.
import type { CustomField, EntityRefType } from '../domain/custom-fields.js';
import { type CustomFieldLoaders, customFieldKind } from './custom-fields.js';
import type { RelationshipDef } from './jsonapi.js';

/** What the include loads from (implemented by services/custom-fields.ts). */
export interface CustomFieldValueLoaders extends CustomFieldLoaders {
  valuesFor(accountId: string, entityType: EntityRefType, entityIds: string[]): Promise<CustomField[]>;
}

/** A shipment or container record: its values' ids are set on it once they are loaded. */
interface Holder {
  id: string;
  account_id: string;
  custom_field_ids?: string[];
}

/** The values loaded for each record object, so that the include does not read them again. */
const loaded = new WeakMap<object, CustomField[]>();

/** Loads the values of `records` (one query) and sets each record's `custom_field_ids`, oldest value first. */
export async function attachCustomFields(
  loaders: Pick<CustomFieldValueLoaders, 'valuesFor'>,
  accountId: string,
  entityType: EntityRefType,
  records: Holder[],
): Promise<void> {
  if (records.length === 0) return;
  const values = await loaders.valuesFor(
    accountId,
    entityType,
    records.map((r) => r.id),
  );
  for (const r of records) {
    const own = values.filter((v) => v.entityId === r.id);
    r.custom_field_ids = own.map((v) => v.id);
    loaded.set(r, own);
  }
}

/** The `custom_fields` relationship of a record whose values were loaded; nothing otherwise. */
export function customFieldsRelationship(r: Holder): { custom_fields?: { data: { id: string; type: 'custom_field' }[] } } {
  return r.custom_field_ids ? { custom_fields: { data: r.custom_field_ids.map((id) => ({ id, type: 'custom_field' as const })) } } : {};
}

/** The `custom_fields` include of a kind whose records are `entityType`. */
export function customFieldsInclude<T extends Holder>(loaders: CustomFieldValueLoaders, entityType: EntityRefType): RelationshipDef<T> {
  const kind = customFieldKind(loaders);
  return {
    targets: () => [kind],
    async load(records) {
      const accountId = records[0]?.account_id;
      if (!accountId) return [];
      await attachCustomFields(
        loaders,
        accountId,
        entityType,
        records.filter((r) => !loaded.has(r)),
      );
      return records.flatMap((r) => loaded.get(r) ?? []).map((record) => ({ kind, record }));
    },
  };
}

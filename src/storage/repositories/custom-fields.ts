// Custom-field definitions, their options and the values on records (migration 0030). Every query names the account.
import type { EntityRefType } from '../../domain/custom-fields.js';
import { one, type Queryable } from '../db.js';
import type { CustomFieldDefinitions, CustomFieldOptions, CustomFields } from '../schema.generated.js';
import { changed, changeTag } from './changes.js';

export type DefinitionRow = CustomFieldDefinitions;
export type OptionRow = CustomFieldOptions;
export interface FieldRow extends CustomFields {
  api_slug: string;
}

export const DEFINITION_SLUG_CONSTRAINT = 'custom_field_definitions_slug_key';
export const OPTION_VALUE_CONSTRAINT = 'custom_field_options_value_key';

/** A foreign-key violation (23503): a value written for a definition or record deleted meanwhile. */
export function isForeignKeyViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === '23503';
}

interface Page {
  limit: number;
  offset: number;
}
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

// ---------- definitions ----------

export interface NewDefinition {
  id: string;
  accountId: string;
  entityType: string;
  apiSlug: string;
  displayName: string;
  description: string | null;
  dataType: string;
  referenceType: string | null;
  validation: unknown;
  defaultFormat: string | null;
  defaultValue: unknown;
  now: Date;
}

/** Takes the account's lock for definition writes (the per-account limit is counted under it). */
export async function lockAccountDefinitions(q: Queryable, accountId: string): Promise<void> {
  await q.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
}

export async function countDefinitions(q: Queryable, accountId: string): Promise<number> {
  return (
    (await one<{ n: number }>(q, 'SELECT count(*)::int AS n FROM custom_field_definitions WHERE account_id = $1', [accountId]))?.n ?? 0
  );
}

export async function insertDefinition(q: Queryable, d: NewDefinition): Promise<DefinitionRow> {
  const row = await one<DefinitionRow>(
    q,
    `INSERT INTO custom_field_definitions (id, account_id, entity_type, api_slug, display_name, description, data_type,
       reference_type, validation, default_format, default_value, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING *`,
    [
      d.id,
      d.accountId,
      d.entityType,
      d.apiSlug,
      d.displayName,
      d.description,
      d.dataType,
      d.referenceType,
      json(d.validation),
      d.defaultFormat,
      json(d.defaultValue),
      d.now,
    ],
  );
  return row!;
}

/**
 * `lock`: `true` takes the row FOR UPDATE (a definition write); `'share'` FOR SHARE, which a value write takes so that
 * the definition cannot be deleted under it (a delete waits for the write's commit, then takes the value with it).
 */
export async function findDefinition(
  q: Queryable,
  accountId: string,
  id: string,
  lock: boolean | 'share' = false,
): Promise<DefinitionRow | undefined> {
  const clause = lock === 'share' ? ' FOR SHARE' : lock ? ' FOR UPDATE' : '';
  return one<DefinitionRow>(q, `SELECT * FROM custom_field_definitions WHERE account_id = $1 AND id = $2${clause}`, [accountId, id]);
}

export async function findDefinitionsBySlugs(
  q: Queryable,
  accountId: string,
  entityType: string,
  slugs: string[],
  /** FOR SHARE: a value write holds its definition (see findDefinition). */
  share = false,
): Promise<DefinitionRow[]> {
  if (!slugs.length) return [];
  return q.query<DefinitionRow>(
    `SELECT * FROM custom_field_definitions WHERE account_id = $1 AND entity_type = $2 AND api_slug = ANY($3::text[])${share ? ' FOR SHARE' : ''}`,
    [accountId, entityType, slugs],
  );
}

export async function findDefinitionsByIds(q: Queryable, accountId: string, ids: string[]): Promise<DefinitionRow[]> {
  if (!ids.length) return [];
  return q.query<DefinitionRow>('SELECT * FROM custom_field_definitions WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
}

export interface DefinitionFilters {
  entityType?: string | undefined;
  dataType?: string | undefined;
  displayNamePrefix?: string | undefined;
}

/** Oldest first: the order they were made in, the order a form shows them. */
export async function listDefinitions(
  q: Queryable,
  accountId: string,
  f: DefinitionFilters,
  page: Page,
): Promise<{ items: DefinitionRow[]; total: number }> {
  const where = ['account_id = $1'];
  const values: unknown[] = [accountId];
  if (f.entityType !== undefined) where.push(`entity_type = $${values.push(f.entityType)}`);
  if (f.dataType !== undefined) where.push(`data_type = $${values.push(f.dataType)}`);
  if (f.displayNamePrefix !== undefined) {
    const prefix = f.displayNamePrefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    where.push(`lower(display_name) LIKE $${values.push(`${prefix}%`)}`);
  }
  const clause = where.join(' AND ');
  const items = await q.query<DefinitionRow>(
    `SELECT * FROM custom_field_definitions WHERE ${clause} ORDER BY created_at, id LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, page.limit, page.offset],
  );
  const total = (await one<{ n: number }>(q, `SELECT count(*)::int AS n FROM custom_field_definitions WHERE ${clause}`, values))?.n ?? 0;
  return { items, total };
}

export interface DefinitionChanges {
  displayName: string;
  description: string | null;
  validation: unknown;
  defaultFormat: string | null;
  defaultValue: unknown;
}

export async function updateDefinition(
  q: Queryable,
  accountId: string,
  id: string,
  c: DefinitionChanges,
  now: Date,
): Promise<DefinitionRow | undefined> {
  const row = await one<DefinitionRow>(
    q,
    `UPDATE custom_field_definitions SET display_name = $3, description = $4, validation = $5, default_format = $6,
       default_value = $7, updated_at = $8
     WHERE account_id = $1 AND id = $2 RETURNING *`,
    [accountId, id, c.displayName, c.description, json(c.validation), c.defaultFormat, json(c.defaultValue), now],
  );
  // A value's display_value shows the definition's format and labels.
  changed(q, [changeTag.account(accountId)]);
  return row;
}

/** Deletes the definition with its options and values (the foreign keys cascade). */
export async function deleteDefinition(q: Queryable, accountId: string, id: string): Promise<boolean> {
  const rows = await q.query('DELETE FROM custom_field_definitions WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
  changed(q, [changeTag.account(accountId)]);
  return rows.length > 0;
}

// ---------- options ----------

export interface NewOption {
  id: string;
  accountId: string;
  definitionId: string;
  label: string;
  value: string;
  position: number | null;
  now: Date;
}

const OPTION_ORDER = 'ORDER BY position NULLS LAST, value, id';

export async function countOptions(q: Queryable, accountId: string, definitionId: string): Promise<number> {
  return (
    (
      await one<{ n: number }>(q, 'SELECT count(*)::int AS n FROM custom_field_options WHERE account_id = $1 AND definition_id = $2', [
        accountId,
        definitionId,
      ])
    )?.n ?? 0
  );
}

export async function insertOption(q: Queryable, o: NewOption): Promise<OptionRow> {
  const row = await one<OptionRow>(
    q,
    `INSERT INTO custom_field_options (id, account_id, definition_id, label, value, position, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING *`,
    [o.id, o.accountId, o.definitionId, o.label, o.value, o.position, o.now],
  );
  changed(q, [changeTag.account(o.accountId)]);
  return row!;
}

export async function findOption(q: Queryable, accountId: string, definitionId: string, id: string): Promise<OptionRow | undefined> {
  return one<OptionRow>(q, 'SELECT * FROM custom_field_options WHERE account_id = $1 AND definition_id = $2 AND id = $3', [
    accountId,
    definitionId,
    id,
  ]);
}

export async function findOptionByValue(
  q: Queryable,
  accountId: string,
  definitionId: string,
  value: string,
): Promise<OptionRow | undefined> {
  return one<OptionRow>(q, 'SELECT * FROM custom_field_options WHERE account_id = $1 AND definition_id = $2 AND value = $3', [
    accountId,
    definitionId,
    value,
  ]);
}

export async function listOptions(
  q: Queryable,
  accountId: string,
  definitionId: string,
  page: Page,
): Promise<{ items: OptionRow[]; total: number }> {
  const items = await q.query<OptionRow>(
    `SELECT * FROM custom_field_options WHERE account_id = $1 AND definition_id = $2 ${OPTION_ORDER} LIMIT $3 OFFSET $4`,
    [accountId, definitionId, page.limit, page.offset],
  );
  return { items, total: await countOptions(q, accountId, definitionId) };
}

/** Every option of these definitions, in order (position, then value). */
export async function optionsOf(q: Queryable, accountId: string, definitionIds: string[]): Promise<OptionRow[]> {
  if (!definitionIds.length) return [];
  return q.query<OptionRow>(
    `SELECT * FROM custom_field_options WHERE account_id = $1 AND definition_id = ANY($2::uuid[]) ${OPTION_ORDER}`,
    [accountId, definitionIds],
  );
}

export async function updateOption(
  q: Queryable,
  accountId: string,
  definitionId: string,
  id: string,
  c: { label: string; position: number | null },
  now: Date,
): Promise<OptionRow | undefined> {
  const row = await one<OptionRow>(
    q,
    `UPDATE custom_field_options SET label = $4, position = $5, updated_at = $6
     WHERE account_id = $1 AND definition_id = $2 AND id = $3 RETURNING *`,
    [accountId, definitionId, id, c.label, c.position, now],
  );
  changed(q, [changeTag.account(accountId)]);
  return row;
}

/** Deletes an option; values naming it are left as they are. */
export async function deleteOption(q: Queryable, accountId: string, definitionId: string, id: string): Promise<boolean> {
  const rows = await q.query('DELETE FROM custom_field_options WHERE account_id = $1 AND definition_id = $2 AND id = $3 RETURNING id', [
    accountId,
    definitionId,
    id,
  ]);
  changed(q, [changeTag.account(accountId)]);
  return rows.length > 0;
}

// ---------- values ----------

const ENTITY_COLUMN: Record<EntityRefType, string> = {
  shipment: 'shipment_id',
  container: 'container_id',
  tracking_request: 'tracking_request_id',
};
const ENTITY_TABLE: Record<EntityRefType, string> = {
  shipment: 'shipments',
  container: 'containers',
  tracking_request: 'tracking_requests',
};
const FIELD_SELECT = 'SELECT f.*, d.api_slug FROM custom_fields f JOIN custom_field_definitions d ON d.id = f.definition_id';

/** Whether the account has this shipment, container or tracking request. */
export async function entityExists(q: Queryable, accountId: string, type: EntityRefType, id: string): Promise<boolean> {
  return !!(await one(q, `SELECT 1 FROM ${ENTITY_TABLE[type]} WHERE account_id = $1 AND id = $2`, [accountId, id]));
}

export interface FieldWrite {
  id: string;
  accountId: string;
  definitionId: string;
  entityType: EntityRefType;
  entityId: string;
  value: unknown;
  matchKeys: string[];
  now: Date;
}

/** Sets the value of a definition on a record: inserted, or the one there overwritten (same id). */
export async function upsertField(q: Queryable, w: FieldWrite): Promise<FieldRow> {
  return (await findField(q, w.accountId, await writeField(q, w)))!;
}

/** `upsertField` without reading the row back (a batch of writes): answers the value's id. */
export async function writeField(q: Queryable, w: FieldWrite): Promise<string> {
  const column = ENTITY_COLUMN[w.entityType];
  const rows = await q.query<{ id: string }>(
    `INSERT INTO custom_fields (id, account_id, definition_id, entity_type, ${column}, value, match_keys, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (definition_id, entity_id) DO UPDATE SET value = EXCLUDED.value, match_keys = EXCLUDED.match_keys,
       updated_at = EXCLUDED.updated_at
     RETURNING id`,
    [w.id, w.accountId, w.definitionId, w.entityType, w.entityId, json(w.value), w.matchKeys, w.now],
  );
  changed(q, [changeTag.account(w.accountId)]);
  return rows[0]!.id;
}

export async function findField(q: Queryable, accountId: string, id: string): Promise<FieldRow | undefined> {
  return one<FieldRow>(q, `${FIELD_SELECT} WHERE f.account_id = $1 AND f.id = $2`, [accountId, id]);
}

export async function findFieldOn(q: Queryable, accountId: string, definitionId: string, entityId: string): Promise<FieldRow | undefined> {
  return one<FieldRow>(q, `${FIELD_SELECT} WHERE f.account_id = $1 AND f.definition_id = $2 AND f.entity_id = $3`, [
    accountId,
    definitionId,
    entityId,
  ]);
}

export interface FieldFilters {
  entityType?: EntityRefType | undefined;
  entityId?: string | undefined;
  definitionId?: string | undefined;
}

/** Oldest first. */
export async function listFields(
  q: Queryable,
  accountId: string,
  f: FieldFilters,
  page: Page,
): Promise<{ items: FieldRow[]; total: number }> {
  const where = ['f.account_id = $1'];
  const values: unknown[] = [accountId];
  if (f.entityType !== undefined) where.push(`f.entity_type = $${values.push(f.entityType)}`);
  if (f.entityId !== undefined) where.push(`f.entity_id = $${values.push(f.entityId)}`);
  if (f.definitionId !== undefined) where.push(`f.definition_id = $${values.push(f.definitionId)}`);
  const clause = where.join(' AND ');
  const items = await q.query<FieldRow>(
    `${FIELD_SELECT} WHERE ${clause} ORDER BY f.created_at, f.id LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, page.limit, page.offset],
  );
  const total = (await one<{ n: number }>(q, `SELECT count(*)::int AS n FROM custom_fields f WHERE ${clause}`, values))?.n ?? 0;
  return { items, total };
}

/** The values on these records (of one type), oldest first. */
export async function fieldsOn(q: Queryable, accountId: string, type: EntityRefType, entityIds: string[]): Promise<FieldRow[]> {
  if (!entityIds.length) return [];
  return q.query<FieldRow>(
    `${FIELD_SELECT} WHERE f.account_id = $1 AND f.entity_type = $2 AND f.entity_id = ANY($3::uuid[]) ORDER BY f.created_at, f.id`,
    [accountId, type, entityIds],
  );
}

export async function updateFieldValue(
  q: Queryable,
  accountId: string,
  id: string,
  value: unknown,
  matchKeys: string[],
  now: Date,
): Promise<FieldRow | undefined> {
  const rows = await q.query(
    'UPDATE custom_fields SET value = $3, match_keys = $4, updated_at = $5 WHERE account_id = $1 AND id = $2 RETURNING id',
    [accountId, id, json(value), matchKeys, now],
  );
  changed(q, [changeTag.account(accountId)]);
  return rows.length ? findField(q, accountId, id) : undefined;
}

export async function deleteField(q: Queryable, accountId: string, id: string): Promise<boolean> {
  const rows = await q.query('DELETE FROM custom_fields WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
  changed(q, [changeTag.account(accountId)]);
  return rows.length > 0;
}

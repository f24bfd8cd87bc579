// Custom fields (docs/custom-fields.md): definitions, their options, and values on the account's shipments,
// containers and tracking requests. The rules are src/domain/custom-fields.ts; this service reads and writes them in
// the caller's account and points problems at the request. Other features build on it: `valuesFor` (includes),
// `applyStaged` inside a caller's transaction (initial custom fields), `checkValues` before a write, `filtersFor`.
import type { Clock } from '../domain/clock.js';
import {
  type CustomField,
  type CustomFieldDefinition,
  checkValue,
  comparableKeys,
  type DataType,
  type DefinitionAttributes,
  type DefinitionFields,
  displayValue,
  type EntityRefType,
  type EntityType,
  entityTypeOf,
  type FieldValue,
  filterKey,
  LIMITS,
  type OptionRef,
  type Problem,
  readDefinition,
  readEntityType,
  refTypeOf,
  type Validation,
} from '../domain/custom-fields.js';
import { type ErrorItem, type TidemarkError, validationFailed } from '../domain/errors.js';
import { isUuid, newId } from '../lib/ids.js';
import { type Db, isUniqueViolation, type Queryable } from '../storage/db.js';
import * as repo from '../storage/repositories/custom-fields.js';
import { ATTR, CustomFieldOptions, fail, hasOptions, notFound, toOption } from './custom-field-options.js';

export type { CustomField, CustomFieldDefinition, CustomFieldOption } from '../domain/custom-fields.js';

/** A record a value is on: `{type: 'shipment', id}`. */
export interface EntityRef {
  type: EntityRefType;
  id: string;
}

export interface Page {
  limit: number;
  offset: number;
}

export interface DefinitionFilters {
  /** Any spelling `readEntityType` takes; an unknown one matches nothing. */
  entityType?: string | undefined;
  dataType?: string | undefined;
  displayName?: string | undefined;
}
export interface FieldFilters {
  entityType?: string | undefined;
  entityId?: string | undefined;
  definitionId?: string | undefined;
}

/** A problem with one staged value of a list (`checkValues`): its index, the attribute, the sentence. */
export interface ValueProblem extends Problem {
  index: number;
}

const ENTITY_NAME: Record<EntityRefType, string> = { shipment: 'Shipment', container: 'Container', tracking_request: 'TrackingRequest' };

function toDefinition(r: repo.DefinitionRow, options: readonly repo.OptionRow[]): CustomFieldDefinition {
  return {
    id: r.id,
    accountId: r.account_id,
    entityType: r.entity_type as EntityType,
    apiSlug: r.api_slug,
    displayName: r.display_name,
    description: r.description,
    dataType: r.data_type as DataType,
    referenceType: r.reference_type as EntityRefType | null,
    validation: (r.validation ?? null) as Validation | null,
    defaultFormat: r.default_format,
    defaultValue: (r.default_value ?? null) as FieldValue,
    optionIds: options.filter((o) => o.definition_id === r.id).map((o) => o.id),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A definition ready for value checks (`prepare`). */
interface Prepared {
  def: repo.DefinitionRow;
  rules: CustomFieldDefinition;
  options: OptionRef[];
}

export class CustomFieldService {
  private readonly options: CustomFieldOptions;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.options = new CustomFieldOptions(db, clock, (q, accountId, id, lock) => this.definitionRow(q, accountId, id, lock));
  }

  // ---------- definitions ----------

  private async definitionsWithOptions(q: Queryable, accountId: string, rows: repo.DefinitionRow[]): Promise<CustomFieldDefinition[]> {
    const options = await repo.optionsOf(
      q,
      accountId,
      rows.filter((r) => hasOptions(r.data_type)).map((r) => r.id),
    );
    return rows.map((r) => toDefinition(r, options));
  }

  private async definitionRow(q: Queryable, accountId: string, id: string, lock = false): Promise<repo.DefinitionRow> {
    const row = isUuid(id) ? await repo.findDefinition(q, accountId, id, lock) : undefined;
    if (!row) throw notFound('CustomFieldDefinition');
    return row;
  }

  async getDefinition(accountId: string, id: string): Promise<CustomFieldDefinition> {
    const row = await this.definitionRow(this.db, accountId, id);
    return (await this.definitionsWithOptions(this.db, accountId, [row]))[0]!;
  }

  /** The account's definitions among `ids` (includes). */
  async definitionsByIds(accountId: string, ids: string[]): Promise<CustomFieldDefinition[]> {
    const rows = await repo.findDefinitionsByIds(this.db, accountId, ids.filter(isUuid));
    return this.definitionsWithOptions(this.db, accountId, rows);
  }

  async listDefinitions(
    accountId: string,
    filters: DefinitionFilters,
    page: Page,
  ): Promise<{ items: CustomFieldDefinition[]; total: number }> {
    const entityType = filters.entityType === undefined ? undefined : (readEntityType(filters.entityType) ?? filters.entityType);
    const { items, total } = await repo.listDefinitions(
      this.db,
      accountId,
      { entityType, dataType: filters.dataType, displayNamePrefix: filters.displayName },
      page,
    );
    return { items: await this.definitionsWithOptions(this.db, accountId, items), total };
  }

  private taken(entityType: string, slug: string): TidemarkError {
    return validationFailed([
      { pointer: `${ATTR}/api_slug`, detail: `Api slug '${slug}' has already been taken for ${entityType}`, code: 'taken' },
    ]);
  }

  async createDefinition(accountId: string, attrs: DefinitionAttributes): Promise<CustomFieldDefinition> {
    const read = readDefinition(attrs, []);
    if ('problems' in read) throw fail(read.problems);
    const d = read.definition;
    try {
      return await this.db.transaction(async (tx) => {
        await this.defaultRecord(tx, accountId, d);
        await repo.lockAccountDefinitions(tx, accountId);
        if ((await repo.countDefinitions(tx, accountId)) >= LIMITS.definitionsPerAccount) {
          throw validationFailed([
            {
              pointer: '/data',
              detail: `An account may have at most ${LIMITS.definitionsPerAccount} custom field definitions`,
              code: 'limit',
            },
          ]);
        }
        if ((await repo.findDefinitionsBySlugs(tx, accountId, d.entityType, [d.apiSlug])).length) throw this.taken(d.entityType, d.apiSlug);
        const row = await repo.insertDefinition(tx, { id: newId(), accountId, ...d, now: this.clock.now() });
        return toDefinition(row, []);
      });
    } catch (err) {
      if (isUniqueViolation(err, repo.DEFINITION_SLUG_CONSTRAINT)) throw this.taken(d.entityType, d.apiSlug);
      throw err;
    }
  }

  async updateDefinition(accountId: string, id: string, attrs: DefinitionAttributes): Promise<CustomFieldDefinition> {
    return this.db.transaction(async (tx) => {
      const row = await this.definitionRow(tx, accountId, id, true);
      const [existing] = await this.definitionsWithOptions(tx, accountId, [row]);
      const options = hasOptions(row.data_type) ? await repo.optionsOf(tx, accountId, [row.id]) : [];
      const read = readDefinition(attrs, options, existing);
      if ('problems' in read) throw fail(read.problems);
      const d = read.definition;
      if (attrs.default_value !== undefined) await this.defaultRecord(tx, accountId, d);
      const updated = await repo.updateDefinition(tx, accountId, id, d, this.clock.now());
      return toDefinition(updated!, options);
    });
  }

  /** A reference definition's `default_value` must name a record of the account, like any reference value (422). */
  private async defaultRecord(q: Queryable, accountId: string, d: DefinitionFields): Promise<void> {
    const v = d.defaultValue;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
    if (!(await repo.entityExists(q, accountId, v.type, v.id))) {
      throw fail([
        { field: 'default_value', detail: `Default value of ${d.displayName} (${d.apiSlug}) names a ${v.type} the account does not have` },
      ]);
    }
  }

  /** Deletes a definition, its options and every value of it. */
  async deleteDefinition(accountId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await repo.deleteDefinition(this.db, accountId, id))) throw notFound('CustomFieldDefinition');
  }

  // ---------- options (custom-field-options.ts) ----------

  listOptions(accountId: string, definitionId: string, page: Page) {
    return this.options.listOptions(accountId, definitionId, page);
  }
  getOption(accountId: string, definitionId: string, id: string) {
    return this.options.getOption(accountId, definitionId, id);
  }
  /** The options of these definitions (the `options` include), in order. */
  optionsOf(accountId: string, definitionIds: string[]) {
    return this.options.optionsOf(accountId, definitionIds);
  }
  createOption(accountId: string, definitionId: string, attrs: Parameters<CustomFieldOptions['createOption']>[2]) {
    return this.options.createOption(accountId, definitionId, attrs);
  }
  updateOption(accountId: string, definitionId: string, id: string, attrs: Parameters<CustomFieldOptions['updateOption']>[3]) {
    return this.options.updateOption(accountId, definitionId, id, attrs);
  }
  /** Deletes an option; values that name it stay (their display_value then shows the raw value). */
  deleteOption(accountId: string, definitionId: string, id: string) {
    return this.options.deleteOption(accountId, definitionId, id);
  }

  // ---------- values ----------

  /** Values rendered: each with its slug and display_value (its definition's format and option labels). */
  private async present(q: Queryable, accountId: string, rows: repo.FieldRow[]): Promise<CustomField[]> {
    const defs = await repo.findDefinitionsByIds(q, accountId, [...new Set(rows.map((r) => r.definition_id))]);
    const options = await repo.optionsOf(
      q,
      accountId,
      defs.filter((d) => hasOptions(d.data_type)).map((d) => d.id),
    );
    const byId = new Map(defs.map((d) => [d.id, d]));
    return rows.map((r) => {
      const d = byId.get(r.definition_id)!;
      const value = (r.value ?? null) as FieldValue;
      const opts = options.filter((o) => o.definition_id === d.id);
      return {
        id: r.id,
        accountId: r.account_id,
        definitionId: r.definition_id,
        apiSlug: r.api_slug,
        entityType: r.entity_type as EntityRefType,
        entityId: r.entity_id,
        value,
        displayValue: displayValue({ dataType: d.data_type as DataType, defaultFormat: d.default_format }, value, opts),
        createdAt: r.created_at,
        updatedAt: r.updated_at,
      };
    });
  }

  private async entity(q: Queryable, accountId: string, entity: EntityRef): Promise<void> {
    if (!isUuid(entity.id) || !(await repo.entityExists(q, accountId, entity.type, entity.id))) throw notFound(ENTITY_NAME[entity.type]);
  }

  private async fieldRow(q: Queryable, accountId: string, id: string): Promise<repo.FieldRow> {
    const row = isUuid(id) ? await repo.findField(q, accountId, id) : undefined;
    if (!row) throw notFound('CustomField');
    return row;
  }

  /** Definitions ready for value checks: each with its rules and options, the options read in one query. */
  private async prepare(q: Queryable, accountId: string, defs: readonly repo.DefinitionRow[]): Promise<Map<string, Prepared>> {
    const options = await repo.optionsOf(
      q,
      accountId,
      defs.filter((d) => hasOptions(d.data_type)).map((d) => d.id),
    );
    return new Map(
      defs.map((d) => [
        d.id,
        { def: d, rules: toDefinition(d, options), options: options.filter((o) => o.definition_id === d.id).map(toOption) },
      ]),
    );
  }

  /**
   * A value checked for its definition, as stored, or the problem (`field` is `value`). A reference must name a
   * record of the account.
   */
  private async checked(q: Queryable, accountId: string, def: repo.DefinitionRow, raw: unknown): Promise<{ value: FieldValue } | Problem> {
    return this.checkedWith(q, accountId, (await this.prepare(q, accountId, [def])).get(def.id)!, raw);
  }

  private async checkedWith(q: Queryable, accountId: string, p: Prepared, raw: unknown): Promise<{ value: FieldValue } | Problem> {
    const read = checkValue(p.rules, raw, p.options);
    if ('problem' in read) return { field: 'value', detail: read.problem };
    const v = read.value;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(await repo.entityExists(q, accountId, v.type, v.id))) {
      return { field: 'value', detail: `Value of ${p.rules.displayName} (${p.rules.apiSlug}) names a ${v.type} the account does not have` };
    }
    return read;
  }

  /**
   * Checks values before a write, without writing (e.g. `initial_custom_fields`): every slug must name a definition of
   * `entityType` and every value be valid for it. Answers the problems, each with its index in `items`. The
   * definitions and their options are read once for the list.
   */
  async checkValues(
    accountId: string,
    entityType: EntityType,
    items: readonly { api_slug: string; value: unknown }[],
    q: Queryable = this.db,
  ): Promise<ValueProblem[]> {
    return this.checkEach(q, accountId, entityType, items, false, async () => {});
  }

  /**
   * Staged values (`initial_custom_fields`) applied inside the caller's transaction `q`: each item checked once for
   * its definition and, when good, written to every record `targets(index)` names, in order (a later write of the same
   * field on the same record overwrites). The definitions are read once for the batch, held FOR SHARE, with their
   * options. Answers the problems (nothing is written for such an item), each with its index in `items`.
   */
  async applyStaged(
    q: Queryable,
    accountId: string,
    entityType: EntityType,
    items: readonly { api_slug: string; value: unknown }[],
    targets: (index: number) => readonly EntityRef[],
  ): Promise<ValueProblem[]> {
    const now = this.clock.now();
    return this.checkEach(q, accountId, entityType, items, true, async (index, p, value) => {
      const matchKeys = comparableKeys(p.def.data_type as DataType, value);
      for (const entity of targets(index)) {
        try {
          await repo.writeField(q, {
            id: newId(),
            accountId,
            definitionId: p.def.id,
            entityType: entity.type,
            entityId: entity.id,
            value,
            matchKeys,
            now,
          });
        } catch (err) {
          if (repo.isForeignKeyViolation(err)) throw notFound(ENTITY_NAME[entity.type]);
          throw err;
        }
      }
    });
  }

  private async checkEach(
    q: Queryable,
    accountId: string,
    entityType: EntityType,
    items: readonly { api_slug: string; value: unknown }[],
    share: boolean,
    good: (index: number, p: Prepared, value: FieldValue) => Promise<void>,
  ): Promise<ValueProblem[]> {
    const defs = await repo.findDefinitionsBySlugs(q, accountId, entityType, [...new Set(items.map((i) => i.api_slug))], share);
    const prepared = await this.prepare(q, accountId, defs);
    const bySlug = new Map(defs.map((d) => [d.api_slug, prepared.get(d.id)!]));
    const problems: ValueProblem[] = [];
    for (const [index, item] of items.entries()) {
      const p = bySlug.get(item.api_slug);
      if (!p) {
        problems.push({ index, field: 'api_slug', detail: this.unknownSlugDetail(entityType, item.api_slug) });
        continue;
      }
      const read = await this.checkedWith(q, accountId, p, item.value);
      if ('field' in read) problems.push({ index, ...read });
      else await good(index, p, read.value);
    }
    return problems;
  }

  private unknownSlugDetail(entityType: EntityType, slug: string): string {
    return `Api slug '${slug}' names no ${entityType} custom field definition of this account`;
  }

  /**
   * Sets a value on a record by its definition's slug, inside the caller's transaction `q`: an upsert (the value there
   * is overwritten, its id kept). The record must be the account's (not checked here: the caller holds it). Throws a
   * 422 whose pointers start at `pointerBase` (`/data/attributes` by default).
   */
  async setValue(q: Queryable, accountId: string, entity: EntityRef, slug: string, raw: unknown, pointerBase = ATTR): Promise<CustomField> {
    const entityType = entityTypeOf(entity.type);
    // Held FOR SHARE until the caller commits: a definition deleted meanwhile is deleted after, with this value.
    const [def] = await repo.findDefinitionsBySlugs(q, accountId, entityType, [slug], true);
    if (!def) throw fail([{ field: 'api_slug', detail: this.unknownSlugDetail(entityType, slug) }], pointerBase);
    return this.write(q, accountId, def, entity, raw, pointerBase);
  }

  /** Upserts a value; `def` must be held FOR SHARE by the caller's transaction. */
  private async write(q: Queryable, accountId: string, def: repo.DefinitionRow, entity: EntityRef, raw: unknown, base = ATTR) {
    const read = await this.checked(q, accountId, def, raw);
    if ('field' in read) throw fail([read], base);
    try {
      const row = await repo.upsertField(q, {
        id: newId(),
        accountId,
        definitionId: def.id,
        entityType: entity.type,
        entityId: entity.id,
        value: read.value,
        matchKeys: comparableKeys(def.data_type as DataType, read.value),
        now: this.clock.now(),
      });
      return (await this.present(q, accountId, [row]))[0]!;
    } catch (err) {
      // The definition is held; a foreign key can only fail for the record, deleted since it was looked up.
      if (repo.isForeignKeyViolation(err)) throw notFound(ENTITY_NAME[entity.type]);
      throw err;
    }
  }

  /**
   * Changes a value that exists (PATCH): an UPDATE of its row, never an insert, so a value deleted meanwhile is not
   * brought back (404). Its definition is held FOR SHARE; gone, the value went with it (404).
   */
  private async change(q: Queryable, accountId: string, row: repo.FieldRow, raw: unknown): Promise<CustomField> {
    const def = await repo.findDefinition(q, accountId, row.definition_id, 'share');
    if (!def) throw notFound('CustomField');
    const read = await this.checked(q, accountId, def, raw);
    if ('field' in read) throw fail([read]);
    const matchKeys = comparableKeys(def.data_type as DataType, read.value);
    const updated = await repo.updateFieldValue(q, accountId, row.id, read.value, matchKeys, this.clock.now());
    if (!updated) throw notFound('CustomField');
    return (await this.present(q, accountId, [updated]))[0]!;
  }

  /** `POST /{parent}/{id}/custom_fields` and `POST /custom_fields`: sets (creates or overwrites) one value. */
  async set(accountId: string, entity: EntityRef, slug: string, raw: unknown): Promise<CustomField> {
    return this.db.transaction(async (tx) => {
      await this.entity(tx, accountId, entity);
      return this.setValue(tx, accountId, entity, slug, raw);
    });
  }

  /** The values on one record (`GET /{parent}/{id}/custom_fields`), a page at a time. */
  async listOn(accountId: string, entity: EntityRef, page: Page): Promise<{ items: CustomField[]; total: number }> {
    await this.entity(this.db, accountId, entity);
    const { items, total } = await repo.listFields(this.db, accountId, { entityType: entity.type, entityId: entity.id }, page);
    return { items: await this.present(this.db, accountId, items), total };
  }

  /** Every value on these records of one type (`include=custom_fields`), oldest first; ids not the account's add nothing. */
  async valuesFor(accountId: string, entityType: EntityRefType, entityIds: string[]): Promise<CustomField[]> {
    const rows = await repo.fieldsOn(this.db, accountId, entityType, [...new Set(entityIds.filter(isUuid))]);
    return this.present(this.db, accountId, rows);
  }

  async list(accountId: string, filters: FieldFilters, page: Page): Promise<{ items: CustomField[]; total: number }> {
    const none = { items: [], total: 0 };
    let entityType: EntityRefType | undefined;
    if (filters.entityType !== undefined) {
      const t = readEntityType(filters.entityType);
      if (!t) return none;
      entityType = refTypeOf(t);
    }
    for (const id of [filters.entityId, filters.definitionId]) if (id !== undefined && !isUuid(id)) return none;
    const { items, total } = await repo.listFields(
      this.db,
      accountId,
      { entityType, entityId: filters.entityId, definitionId: filters.definitionId },
      page,
    );
    return { items: await this.present(this.db, accountId, items), total };
  }

  async get(accountId: string, id: string): Promise<CustomField> {
    return (await this.present(this.db, accountId, [await this.fieldRow(this.db, accountId, id)]))[0]!;
  }

  /** The account's values among `ids`. */
  async byIds(accountId: string, ids: string[]): Promise<CustomField[]> {
    const rows = await Promise.all(ids.filter(isUuid).map((id) => repo.findField(this.db, accountId, id)));
    return this.present(
      this.db,
      accountId,
      rows.filter((r): r is repo.FieldRow => !!r),
    );
  }

  /** `PATCH /custom_fields/{id}`: a new value for the same definition and record. */
  async update(accountId: string, id: string, raw: unknown): Promise<CustomField> {
    return this.db.transaction(async (tx) => {
      return this.change(tx, accountId, await this.fieldRow(tx, accountId, id), raw);
    });
  }

  async delete(accountId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await repo.deleteField(this.db, accountId, id))) throw notFound('CustomField');
  }

  /** The value of `slug` on a record, for PATCH and DELETE by slug: 404 for the record, 422 for the slug, 404 if unset. */
  private async onBySlug(q: Queryable, accountId: string, entity: EntityRef, slug: string) {
    await this.entity(q, accountId, entity);
    const entityType = entityTypeOf(entity.type);
    const [def] = await repo.findDefinitionsBySlugs(q, accountId, entityType, [slug]);
    if (!def) throw fail([{ field: 'api_slug', detail: this.unknownSlugDetail(entityType, slug) }]);
    const row = await repo.findFieldOn(q, accountId, def.id, entity.id);
    if (!row) throw notFound('CustomField');
    return { def, row };
  }

  /** `PATCH /{parent}/{id}/custom_fields/{api_slug}`: changes a value that is set (404 when none is). */
  async updateOn(accountId: string, entity: EntityRef, slug: string, raw: unknown): Promise<CustomField> {
    return this.db.transaction(async (tx) => {
      const { row } = await this.onBySlug(tx, accountId, entity, slug);
      return this.change(tx, accountId, row, raw);
    });
  }

  /** `DELETE /{parent}/{id}/custom_fields/{api_slug}`. */
  async deleteOn(accountId: string, entity: EntityRef, slug: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { row } = await this.onBySlug(tx, accountId, entity, slug);
      await repo.deleteField(tx, accountId, row.id);
    });
  }

  /**
   * `filter[custom_fields][<slug>]=<text>` on a list of `entityType`, for each `[slug, text]`: the definition and the
   * comparable key to match (`custom_fields.match_keys @> ARRAY[key]`), the definitions read in one query. An unknown
   * slug or a text the data type cannot read is a 422 item with `source.parameter`; every problem in one error.
   */
  async filtersFor(
    accountId: string,
    entityType: EntityType,
    given: readonly (readonly [slug: string, text: string])[],
  ): Promise<{ definitionId: string; key: string }[]> {
    const defs = await repo.findDefinitionsBySlugs(this.db, accountId, entityType, [...new Set(given.map(([slug]) => slug))]);
    const bySlug = new Map(defs.map((d) => [d.api_slug, d]));
    const matches: { definitionId: string; key: string }[] = [];
    const problems: ErrorItem[] = [];
    for (const [slug, text] of given) {
      const parameter = `filter[custom_fields][${slug}]`;
      const def = bySlug.get(slug);
      if (!def) {
        problems.push({ parameter, detail: this.unknownSlugDetail(entityType, slug) });
        continue;
      }
      const read = filterKey(def.data_type as DataType, text);
      if ('problem' in read) problems.push({ parameter, detail: `${parameter} ${read.problem}` });
      else matches.push({ definitionId: def.id, key: read.key });
    }
    if (problems.length) throw validationFailed(problems);
    return matches;
  }
}

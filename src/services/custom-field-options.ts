// The options of enum and enum_multi custom-field definitions (docs/custom-fields.md): CustomFieldService hands
// its option operations to this class, with the one thing it needs of the definitions, reading one in the account.
import type { Clock } from '../domain/clock.js';
import { type CustomFieldOption, LIMITS, type Problem } from '../domain/custom-fields.js';
import { type ErrorItem, TidemarkError, validationFailed } from '../domain/errors.js';
import { isUuid, newId } from '../lib/ids.js';
import { type Db, isUniqueViolation, type Queryable } from '../storage/db.js';
import * as repo from '../storage/repositories/custom-fields.js';
import type { Page } from './custom-fields.js';

export const ATTR = '/data/attributes';
export const notFound = (what: string) => new TidemarkError('not_found', `Couldn't find ${what}`);
export const fail = (problems: Problem[], base = ATTR): TidemarkError =>
  validationFailed(problems.map((p): ErrorItem => ({ pointer: `${base}/${p.field}`, detail: p.detail })));
export const hasOptions = (dataType: string) => dataType === 'enum' || dataType === 'enum_multi';

export const toOption = (r: repo.OptionRow): CustomFieldOption => ({
  id: r.id,
  accountId: r.account_id,
  definitionId: r.definition_id,
  label: r.label,
  value: r.value,
  position: r.position,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Reads a definition of the account (404 when it is not one), locking it for the transaction when asked. */
export type DefinitionReader = (q: Queryable, accountId: string, id: string, lock?: boolean) => Promise<repo.DefinitionRow>;

export class CustomFieldOptions {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly definitionRow: DefinitionReader,
  ) {}

  private optionTaken(value: string): TidemarkError {
    return validationFailed([{ pointer: `${ATTR}/value`, detail: `Value '${value}' has already been taken`, code: 'taken' }]);
  }

  private optionText(field: 'label' | 'value', text: string | undefined | null, problems: Problem[]): string {
    const t = (text ?? '').trim();
    const words = field === 'label' ? 'Label' : 'Value';
    if (!t) problems.push({ field, detail: `${words} can't be blank` });
    else if ([...t].length > LIMITS.optionTextLength) {
      problems.push({ field, detail: `${words} is too long (maximum is ${LIMITS.optionTextLength} characters)` });
    }
    return t;
  }

  private async optionRow(q: Queryable, accountId: string, definitionId: string, id: string): Promise<repo.OptionRow> {
    const row = isUuid(id) ? await repo.findOption(q, accountId, definitionId, id) : undefined;
    if (!row) throw notFound('CustomFieldOption');
    return row;
  }

  async listOptions(accountId: string, definitionId: string, page: Page): Promise<{ items: CustomFieldOption[]; total: number }> {
    await this.definitionRow(this.db, accountId, definitionId);
    const { items, total } = await repo.listOptions(this.db, accountId, definitionId, page);
    return { items: items.map(toOption), total };
  }

  async getOption(accountId: string, definitionId: string, id: string): Promise<CustomFieldOption> {
    await this.definitionRow(this.db, accountId, definitionId);
    return toOption(await this.optionRow(this.db, accountId, definitionId, id));
  }

  /** The options of these definitions (the `options` include), in order. */
  async optionsOf(accountId: string, definitionIds: string[]): Promise<CustomFieldOption[]> {
    return (await repo.optionsOf(this.db, accountId, definitionIds.filter(isUuid))).map(toOption);
  }

  async createOption(
    accountId: string,
    definitionId: string,
    attrs: { label?: string | null | undefined; value?: string | null | undefined; position?: number | null | undefined },
  ): Promise<CustomFieldOption> {
    const problems: Problem[] = [];
    const label = this.optionText('label', attrs.label, problems);
    const value = this.optionText('value', attrs.value, problems);
    try {
      return await this.db.transaction(async (tx) => {
        const def = await this.definitionRow(tx, accountId, definitionId, true);
        if (!hasOptions(def.data_type)) {
          throw validationFailed([
            { pointer: '/data', detail: `Options can only be added to enum and enum_multi fields; ${def.api_slug} is ${def.data_type}` },
          ]);
        }
        if (problems.length) throw fail(problems);
        if ((await repo.countOptions(tx, accountId, definitionId)) >= LIMITS.optionsPerDefinition) {
          throw validationFailed([
            {
              pointer: '/data',
              detail: `A custom field definition may have at most ${LIMITS.optionsPerDefinition} options`,
              code: 'limit',
            },
          ]);
        }
        if (await repo.findOptionByValue(tx, accountId, definitionId, value)) throw this.optionTaken(value);
        const row = await repo.insertOption(tx, {
          id: newId(),
          accountId,
          definitionId,
          label,
          value,
          position: attrs.position ?? null,
          now: this.clock.now(),
        });
        return toOption(row);
      });
    } catch (err) {
      if (isUniqueViolation(err, repo.OPTION_VALUE_CONSTRAINT)) throw this.optionTaken(value);
      throw err;
    }
  }

  async updateOption(
    accountId: string,
    definitionId: string,
    id: string,
    attrs: { label?: string | null | undefined; value?: string | null | undefined; position?: number | null | undefined },
  ): Promise<CustomFieldOption> {
    await this.definitionRow(this.db, accountId, definitionId);
    const row = await this.optionRow(this.db, accountId, definitionId, id);
    const problems: Problem[] = [];
    if (attrs.value !== undefined && attrs.value !== row.value)
      problems.push({ field: 'value', detail: 'Value cannot be changed after creation' });
    const label = attrs.label === undefined ? row.label : this.optionText('label', attrs.label, problems);
    if (problems.length) throw fail(problems);
    const position = attrs.position === undefined ? row.position : attrs.position;
    const updated = await repo.updateOption(this.db, accountId, definitionId, id, { label, position }, this.clock.now());
    if (!updated) throw notFound('CustomFieldOption');
    return toOption(updated);
  }

  /** Deletes an option; values that name it stay (their display_value then shows the raw value). */
  async deleteOption(accountId: string, definitionId: string, id: string): Promise<void> {
    await this.definitionRow(this.db, accountId, definitionId);
    if (!isUuid(id) || !(await repo.deleteOption(this.db, accountId, definitionId, id))) throw notFound('CustomFieldOption');
  }
}

// `filter[custom_fields][<api_slug>]=<value>` on GET /v2/shipments and /v2/containers (an extension:
// docs/extensions.md): records holding that value, read as the definition's data type reads it; several slugs must
// all hold. The query schema takes one text per slug (else 400); the service finds each definition and reads the text
// (services/custom-fields.ts `filterFor`); an unknown slug or a text the type cannot read is a 422 naming the parameter.
import { z } from 'zod';
import type { EntityType } from '../domain/custom-fields.js';
import { type ErrorItem, TidemarkError, validationFailed } from '../domain/errors.js';
import type { CustomFieldService } from '../services/custom-fields.js';
import { oneValue } from './query.js';

/** The `custom_fields` member of a list's `filter[…]`: one value per slug. */
export const customFieldsFilter = z
  .record(z.string(), oneValue(), { error: 'must be given as filter[custom_fields][api_slug]=value' })
  .optional()
  .meta({
    description:
      'Extension: filter[custom_fields][<api_slug>]=<value>, records whose custom field equals the value as its data type reads it ' +
      '(enum_multi: holds that option; boolean: true/false; number: numerically; date: YYYY-MM-DD; datetime: the same instant). ' +
      'Several slugs must all hold; an unknown slug or a value the type cannot read is a 422.',
  });

/** The conditions of `filter[custom_fields]`, blank values left out; every problem in one 422. */
export async function customFieldMatches(
  fields: Pick<CustomFieldService, 'filterFor'>,
  accountId: string,
  entityType: EntityType,
  given: Record<string, string> | undefined,
): Promise<{ definitionId: string; key: string }[]> {
  const matches: { definitionId: string; key: string }[] = [];
  const problems: ErrorItem[] = [];
  for (const [slug, text] of Object.entries(given ?? {})) {
    if (text === '') continue;
    try {
      matches.push(await fields.filterFor(accountId, entityType, slug, text));
    } catch (err) {
      if (!(err instanceof TidemarkError) || err.code !== 'validation_failed') throw err;
      problems.push(...err.items.map((i) => ({ title: 'Invalid custom field filter', ...i })));
    }
  }
  if (problems.length) throw validationFailed(problems);
  return matches;
}

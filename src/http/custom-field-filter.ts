// `filter[custom_fields][<api_slug>]=<value>` on GET /v2/shipments and /v2/containers (an extension:
// docs/extensions.md): records holding that value, read as the definition's data type reads it; several slugs must
// all hold, at most MAX_CUSTOM_FIELD_FILTERS of them. The query schema takes one text per slug (else 400); the service
// finds the definitions (one query) and reads the texts (services/custom-fields.ts `filtersFor`); an unknown slug or a
// text the type cannot read is a 422 naming the parameter.
import { z } from 'zod';
import type { EntityType } from '../domain/custom-fields.js';
import { TidemarkError, validationFailed } from '../domain/errors.js';
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
      'Several slugs (at most 10) must all hold; an unknown slug or a value the type cannot read is a 422.',
  });

/** At most this many slugs in one `filter[custom_fields]`. */
export const MAX_CUSTOM_FIELD_FILTERS = 10;
const PARAMETER = 'filter[custom_fields]';
const TITLE = 'Invalid custom field filter';

/** The conditions of `filter[custom_fields]`, blank values left out; every problem in one 422. */
export async function customFieldMatches(
  fields: Pick<CustomFieldService, 'filtersFor'>,
  accountId: string,
  entityType: EntityType,
  given: Record<string, string> | undefined,
): Promise<{ definitionId: string; key: string }[]> {
  const entries = Object.entries(given ?? {}).filter(([, text]) => text !== '');
  if (entries.length > MAX_CUSTOM_FIELD_FILTERS) {
    throw validationFailed([
      {
        title: TITLE,
        parameter: PARAMETER,
        detail: `${PARAMETER} may name at most ${MAX_CUSTOM_FIELD_FILTERS} custom fields (${entries.length} were given)`,
      },
    ]);
  }
  if (!entries.length) return [];
  try {
    return await fields.filtersFor(accountId, entityType, entries);
  } catch (err) {
    if (!(err instanceof TidemarkError) || err.code !== 'validation_failed') throw err;
    throw validationFailed(err.items.map((i) => ({ title: TITLE, ...i })));
  }
}

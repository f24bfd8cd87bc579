// `filter[custom_fields][<slug>]=<value>` on the shipments and containers lists: the record holds a value of that
// definition whose comparable keys (custom_fields.match_keys, src/domain/custom-fields.ts `comparableKeys`) contain
// the filter's key. The account is the list's `$1`; the definition is the account's (services/custom-fields.ts
// `filtersFor` found it by slug in that account).

/** One custom-field condition: the definition and the comparable key its value must hold. */
export interface CustomFieldMatch {
  definitionId: string;
  key: string;
}

/** The condition on `idColumn` (`s.id`, `c.id`), its two values pushed onto the query's `values`. */
export function customFieldMatch(idColumn: string, match: CustomFieldMatch, values: unknown[]): string {
  values.push(match.definitionId, match.key);
  const [definition, key] = [`$${values.length - 1}`, `$${values.length}`];
  return `EXISTS (SELECT 1 FROM custom_fields f WHERE f.account_id = $1 AND f.definition_id = ${definition}::uuid
    AND f.entity_id = ${idColumn} AND f.match_keys @> ARRAY[${key}::text])`;
}

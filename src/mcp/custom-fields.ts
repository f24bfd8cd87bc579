// The account's custom-field values on the shipments and containers a tool answers with, as a model reads them:
// the field's slug and display name, the value as people read it (display_value) and as stored.
import { z } from 'zod';
import type { EntityRefType } from '../domain/custom-fields.js';
import type { McpDeps } from './context.js';

export const customFieldsOutput = z
  .array(
    z.object({
      api_slug: z.string(),
      display_name: z.string(),
      display_value: z.string().nullable(),
      value: z.unknown(),
    }),
  )
  .describe("The account's own custom fields set on it (docs/custom-fields.md)");

export type McpCustomField = z.output<typeof customFieldsOutput>[number];

/** The values on each record among `ids` (every id is a key, with [] when it has none), oldest first. */
export async function customFieldsOf(
  deps: Pick<McpDeps, 'customFields'>,
  accountId: string,
  entityType: EntityRefType,
  ids: string[],
): Promise<Map<string, McpCustomField[]>> {
  const values = await deps.customFields.valuesFor(accountId, entityType, ids);
  const definitions = await deps.customFields.definitionsByIds(accountId, [...new Set(values.map((v) => v.definitionId))]);
  const names = new Map(definitions.map((d) => [d.id, d.displayName]));
  const out = new Map<string, McpCustomField[]>(ids.map((id) => [id, []]));
  for (const v of values) {
    out.get(v.entityId)?.push({
      api_slug: v.apiSlug,
      display_name: names.get(v.definitionId) ?? v.apiSlug,
      display_value: v.displayValue,
      value: v.value,
    });
  }
  return out;
}

/** A sentence for the tool's summary: `PO number: 4711; Priority: High`, or '' when there are none. */
export function customFieldsSentence(fields: readonly McpCustomField[]): string {
  if (fields.length === 0) return '';
  return ` Custom fields: ${fields.map((f) => `${f.display_name}: ${f.display_value ?? '(none)'}`).join('; ')}.`;
}

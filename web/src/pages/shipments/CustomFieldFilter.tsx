// The shipments list's filter by a custom field: choose one of the account's shipment definitions, then enter or
// pick the value with a control fitting its type (lib/custom-fields-query.ts reads it into the filter text).
import { useId } from 'preact/hooks';
import { CustomFieldInput } from '../../components/CustomFieldInput';
import { SelectField } from '../../components/Field';
import type { Definition } from '../../lib/custom-fields';

export function CustomFieldFilter({
  definitions,
  slug,
  onSlug,
  draft,
  onDraft,
  error,
}: {
  /** Undefined while they load (or when they could not be). */
  definitions: Definition[] | undefined;
  slug: string;
  onSlug: (slug: string) => void;
  draft: string;
  onDraft: (draft: string) => void;
  error: string | undefined;
}) {
  const valueId = useId();
  if (!definitions) return null;
  if (!definitions.length && !slug) {
    return (
      <p class="field-hint custom-field-filter-hint">
        No custom fields for shipments yet: define them with the API (<code>POST /v2/custom_field_definitions</code>, see
        docs/custom-fields.md) to filter and show them here.
      </p>
    );
  }
  const def = definitions.find((d) => d.slug === slug);
  return (
    <>
      <SelectField
        label="Custom field"
        name="custom_field"
        value={slug}
        onValue={onSlug}
        options={[
          { value: '', label: 'Any custom field' },
          ...(slug && !def ? [{ value: slug, label: slug }] : []),
          ...definitions.map((d) => ({ value: d.slug, label: d.name })),
        ]}
      />
      {slug &&
        (def ? (
          <CustomFieldInput
            def={def}
            id={valueId}
            mode="filter"
            label={def.dataType === 'enum_multi' ? `${def.name} includes` : `${def.name} is`}
            draft={draft}
            onDraft={(d) => onDraft(Array.isArray(d) ? (d[0] ?? '') : d)}
            error={error}
          />
        ) : (
          <CustomFieldInput
            def={{ id: '', slug, name: slug, description: null, dataType: 'short_text', referenceType: null, options: [] }}
            id={valueId}
            mode="filter"
            label={`${slug} is`}
            draft={draft}
            onDraft={(d) => onDraft(Array.isArray(d) ? (d[0] ?? '') : d)}
            error={error}
          />
        ))}
    </>
  );
}

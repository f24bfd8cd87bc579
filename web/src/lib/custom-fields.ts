// Custom fields as the pages handle them: the wire shapes of definitions, options and values (docs/custom-fields.md),
// and the conversion between what an input holds (a draft: the text of a text, number, date or datetime-local
// input, a yes/no choice, the chosen option or options, a reference's id) and the value the API takes, per data
// type, and reading the list documents. Datetimes are edited in UTC, as the API answers them, so the conversion
// does not depend on the browser's zone.

import { Included, type ListDoc, type Resource } from './jsonapi';
import type { CustomFieldAttributes, CustomFieldDefinitionAttributes, CustomFieldOptionAttributes } from './resources';

/** The wire shapes, from the server's response schemas (type-only: nothing of the server enters the bundle). */
export type DefinitionAttributes = CustomFieldDefinitionAttributes;
export type OptionAttributes = CustomFieldOptionAttributes;
export type { CustomFieldAttributes };

export type DataType = DefinitionAttributes['data_type'];

/** The entity types whose pages show custom fields, as `filter[entity_type]` names them. */
export type EntityType = 'Shipment' | 'Container';

/** `custom_field_value`: one of these per data type, null when unset. */
export type CustomFieldValue = CustomFieldAttributes['value'];

/** A definition with its options (in the API's order: by position, then value), as a page uses it. */
export interface Definition {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  dataType: DataType;
  referenceType: DefinitionAttributes['reference_type'];
  options: OptionAttributes[];
}

/** What an input holds: text for most types, the chosen option values for `enum_multi`. */
export type Draft = string | string[];

export type Converted = { ok: true; value: Exclude<CustomFieldValue, null> } | { ok: false; message: string };

/** The draft an input starts from for a stored value (an empty one when nothing is stored). */
export function draftOf(def: Pick<Definition, 'dataType'>, value: CustomFieldValue | undefined): Draft {
  if (def.dataType === 'enum_multi') return Array.isArray(value) ? value.map(String) : [];
  if (value === null || value === undefined) return '';
  switch (def.dataType) {
    case 'boolean':
      return value === true ? 'true' : value === false ? 'false' : '';
    case 'datetime':
      return typeof value === 'string' ? datetimeLocalOf(value) : '';
    case 'reference':
      return typeof value === 'object' && !Array.isArray(value) ? value.id : '';
    default:
      return typeof value === 'object' ? '' : String(value);
  }
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?$/;

/** The value to send for a draft, or why there is none (the field's own sentence, shown beside it). */
export function valueFromDraft(def: Pick<Definition, 'dataType' | 'referenceType' | 'options'>, draft: Draft): Converted {
  if (def.dataType === 'enum_multi') {
    const chosen = Array.isArray(draft) ? draft : draft ? [draft] : [];
    if (!chosen.length) return { ok: false, message: 'Choose at least one option, or clear the field.' };
    return { ok: true, value: chosen };
  }
  const text = Array.isArray(draft) ? (draft[0] ?? '') : draft;
  const trimmed = text.trim();
  switch (def.dataType) {
    case 'short_text':
      return text === '' ? { ok: false, message: 'Enter a text, or clear the field.' } : { ok: true, value: text };
    case 'number': {
      const n = Number(trimmed);
      return NUMBER.test(trimmed) && Number.isFinite(n)
        ? { ok: true, value: n }
        : { ok: false, message: 'Enter a number, such as 12 or 4.5.' };
    }
    case 'date':
      return DATE.test(trimmed) && isoDay(trimmed) ? { ok: true, value: trimmed } : { ok: false, message: 'Enter a date.' };
    case 'datetime': {
      const iso = isoOfDatetimeLocal(trimmed);
      return iso ? { ok: true, value: iso } : { ok: false, message: 'Enter a date and a time.' };
    }
    case 'boolean':
      return trimmed === 'true' || trimmed === 'false'
        ? { ok: true, value: trimmed === 'true' }
        : { ok: false, message: 'Choose Yes or No.' };
    case 'enum':
      return trimmed ? { ok: true, value: trimmed } : { ok: false, message: 'Choose an option.' };
    case 'reference': {
      const type = def.referenceType;
      if (!type) return { ok: false, message: 'This field names no record type; its definition needs a reference_type.' };
      return trimmed ? { ok: true, value: { type, id: trimmed } } : { ok: false, message: `Enter the id of a ${type.replace(/_/g, ' ')}.` };
    }
  }
}

/** A real calendar day (2026-02-30 is not). */
function isoDay(day: string): boolean {
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day;
}

/** `2026-03-01T14:30` (UTC, the form a datetime-local input takes) for an ISO 8601 instant; seconds when not zero. */
export function datetimeLocalOf(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const s = d.toISOString();
  return s.slice(17, 19) === '00' ? s.slice(0, 16) : s.slice(0, 19);
}

/** The UTC instant (`2026-03-01T14:30:00Z`) a datetime-local input's text names, read in UTC; null when it names none. */
export function isoOfDatetimeLocal(local: string): string | null {
  const m = LOCAL.exec(local);
  if (!m || !isoDay(m[1]!)) return null;
  const [h, min] = m[2]!.split(':').map(Number) as [number, number];
  if (h > 23 || min > 59) return null;
  const seconds = m[3] ? m[3].slice(1, 3) : '00';
  if (Number(seconds) > 59) return null;
  return `${m[1]}T${m[2]}:${seconds}Z`;
}

/** What a field shows: the API's `display_value`, else the raw value in words. */
export function displayOf(field: CustomFieldAttributes | undefined): string | null {
  if (!field) return null;
  if (field.display_value !== null && field.display_value !== undefined && field.display_value !== '') return field.display_value;
  const v = field.value;
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'object') return `${v.type} ${v.id}`;
  return String(v);
}

/** The kind of input a data type is edited with. */
export type InputKind = 'text' | 'number' | 'date' | 'datetime-local' | 'yes-no' | 'select' | 'multi-select' | 'reference';

export function inputKindOf(dataType: DataType): InputKind {
  switch (dataType) {
    case 'short_text':
      return 'text';
    case 'number':
      return 'number';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime-local';
    case 'boolean':
      return 'yes-no';
    case 'enum':
      return 'select';
    case 'enum_multi':
      return 'multi-select';
    case 'reference':
      return 'reference';
  }
}

/** A short hint on how to fill a field of this type (beside its description). */
export function typeHint(def: Pick<Definition, 'dataType' | 'referenceType'>): string | null {
  switch (def.dataType) {
    case 'number':
      return 'A number, such as 12 or 4.5.';
    case 'datetime':
      return 'Date and time in UTC.';
    case 'enum_multi':
      return 'Choose one or more.';
    case 'reference':
      return `The id of a ${(def.referenceType ?? 'record').replace(/_/g, ' ')}.`;
    default:
      return null;
  }
}

/** The definitions of a list document (`include=options`), each with its included options in order. */
export function definitionsOf(doc: ListDoc<DefinitionAttributes>): Definition[] {
  const inc = new Included(doc.included);
  return doc.data.map((d) => ({
    id: d.id,
    slug: d.attributes.api_slug,
    name: d.attributes.display_name,
    description: d.attributes.description ?? null,
    dataType: d.attributes.data_type,
    referenceType: d.attributes.reference_type ?? null,
    options: inc.many<OptionAttributes>(d, 'options').map((o) => o.attributes),
  }));
}

/** An entity's values by `api_slug`. */
export function valuesBySlug(fields: Resource<CustomFieldAttributes>[]): Map<string, CustomFieldAttributes> {
  return new Map(fields.map((f) => [f.attributes.api_slug, f.attributes]));
}

// Custom fields (docs/custom-fields.md, decision 0016): the spellings of entity types, the slug rule, the check of a
// value against its definition (data type, options, `validation`), `display_value`, and the comparable form a value
// is filtered by. Pure: problems are data (the attribute and a sentence), never HTTP; the service points them.
import { RE2JS } from 're2js';
import { formatNumber, formatTime, numberFormatProblem, parseDateWith, timeFormatProblem } from './custom-field-formats.js';

/** The entity types a definition is answered with. */
export const ENTITY_TYPES = ['Shipment', 'Container', 'TrackingRequest'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** The relationship `type` of each entity (`relationships.entity.data.type`, `reference_type`). */
export const ENTITY_REF_TYPES = ['shipment', 'container', 'tracking_request'] as const;
export type EntityRefType = (typeof ENTITY_REF_TYPES)[number];

export const DATA_TYPES = ['short_text', 'number', 'date', 'datetime', 'boolean', 'enum', 'enum_multi', 'reference'] as const;
export type DataType = (typeof DATA_TYPES)[number];

const REF_OF: Record<EntityType, EntityRefType> = { Shipment: 'shipment', Container: 'container', TrackingRequest: 'tracking_request' };
const TYPE_OF: Record<EntityRefType, EntityType> = { shipment: 'Shipment', container: 'Container', tracking_request: 'TrackingRequest' };

/**
 * An entity type as clients spell it: `Shipment` | `Container` | `TrackingRequest`, the relationship spellings
 * `shipment` | `container` | `tracking_request`, and the reference's live `Cargo` (a container). Null otherwise.
 */
export function readEntityType(text: string): EntityType | null {
  if ((ENTITY_TYPES as readonly string[]).includes(text)) return text as EntityType;
  if ((ENTITY_REF_TYPES as readonly string[]).includes(text)) return TYPE_OF[text as EntityRefType];
  if (text === 'Cargo') return 'Container';
  return null;
}
export const refTypeOf = (type: EntityType): EntityRefType => REF_OF[type];
export const entityTypeOf = (ref: EntityRefType): EntityType => TYPE_OF[ref];

/** The spellings `readEntityType` takes, for sentences and documentation. */
export const ENTITY_TYPE_SPELLINGS = [...ENTITY_TYPES, ...ENTITY_REF_TYPES, 'Cargo'] as const;

export const SLUG = /^[a-z][a-z0-9_]{0,62}$/;
export const LIMITS = {
  definitionsPerAccount: 200,
  optionsPerDefinition: 200,
  shortTextLength: 1000,
  enumMultiValues: 100,
  displayNameLength: 255,
  descriptionLength: 2000,
  optionTextLength: 255,
  patternLength: 200,
  /**
   * Number fields: at most 12 digits before the point, 6 after, and 15 significant digits in all — what a JSON number
   * (a double) holds exactly, so a value is stored as sent, never silently rounded.
   */
  numberDigitsBeforePoint: 12,
  numberDecimals: 6,
  numberSignificantDigits: 15,
} as const;

/** A problem with one attribute: `field` is the attribute's name as the client sent it, `detail` one sentence. */
export interface Problem {
  field: string;
  detail: string;
}

/** Why `slug` cannot be an api_slug, or null. */
export function slugProblem(slug: string): string | null {
  return SLUG.test(slug)
    ? null
    : 'Api slug must start with a lowercase letter and hold only lowercase letters, digits and underscores (at most 63 characters)';
}

/** A reference value: one record of the caller's account. */
export interface ReferenceValue {
  type: EntityRefType;
  id: string;
}
/** A value as stored and answered (JSON). */
export type FieldValue = string | number | boolean | string[] | ReferenceValue | null;

/** The `validation` keys honoured, checked by `readValidation`. */
export interface Validation {
  required?: boolean;
  pattern?: string;
  max_length?: number;
  min?: number;
  max?: number;
}
export const VALIDATION_KEYS = ['required', 'pattern', 'max_length', 'min', 'max'] as const;

/** What the value check needs of a definition. */
export interface ValueRules {
  apiSlug: string;
  displayName: string;
  dataType: DataType;
  referenceType: EntityRefType | null;
  validation: Validation | null;
  defaultFormat: string | null;
}
export interface OptionRef {
  value: string;
  label: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Text PostgreSQL cannot store (NUL, an unpaired surrogate): the rule of src/lib/storable-text.ts. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const chars = (s: string) => [...s].length;

// ---------- definitions ----------

/** Reads a definition's `validation` for its data type: unknown keys, and keys the type has no use for, are refused. */
export function readValidation(
  dataType: DataType,
  raw: unknown,
): { validation: Validation | null } | { problem: string /** the key the problem is with, when it is one key's */; key?: string } {
  if (raw === null || raw === undefined) return { validation: null };
  if (!isPlainObject(raw)) return { problem: 'Validation must be an object (keys: required, pattern, max_length, min, max)' };
  const out: Validation = {};
  for (const [key, v] of Object.entries(raw)) {
    switch (key) {
      case 'required':
        if (typeof v !== 'boolean') return { problem: 'Validation required must be true or false' };
        out.required = v;
        break;
      case 'pattern': {
        if (dataType !== 'short_text') return { problem: 'Validation pattern applies to short_text fields only' };
        if (typeof v !== 'string' || v.length === 0 || v.length > LIMITS.patternLength) {
          return { problem: `Validation pattern must be a regular expression of 1 to ${LIMITS.patternLength} characters` };
        }
        const unusable = patternProblem(v);
        if (unusable) return { problem: `Validation pattern ${unusable}`, key: 'pattern' };
        out.pattern = v;
        break;
      }
      case 'max_length':
        if (dataType !== 'short_text') return { problem: 'Validation max_length applies to short_text fields only' };
        if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > LIMITS.shortTextLength) {
          return { problem: `Validation max_length must be a whole number from 1 to ${LIMITS.shortTextLength}` };
        }
        out.max_length = v as number;
        break;
      case 'min':
      case 'max':
        if (dataType !== 'number') return { problem: `Validation ${key} applies to number fields only` };
        if (typeof v !== 'number' || !Number.isFinite(v)) return { problem: `Validation ${key} must be a number` };
        out[key] = v;
        break;
      default:
        return { problem: `Validation has an unknown key '${key}' (known keys: ${VALIDATION_KEYS.join(', ')})` };
    }
  }
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) return { problem: 'Validation min must not be above max' };
  return { validation: Object.keys(out).length ? out : null };
}

/** Compiled patterns by their text: a definition's pattern is compiled once, not on every value. */
const compiled = new Map<string, RE2JS>();
const COMPILED_KEPT = 1000;

/**
 * A `validation.pattern` compiled by RE2 (the linear-time engine of `re2js`): matching takes time linear in the
 * text, whatever the pattern, so a client's pattern cannot hang the process. Throws when RE2 cannot compile it.
 */
export function compilePattern(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
    compiled.set(pattern, re);
  }
  return re;
}

/**
 * Why a pattern cannot be used, or null: it must compile as RE2 syntax, which has no backreferences (`\1`, `\k<n>`)
 * and no lookarounds (`(?=`, `(?!`, `(?<=`, `(?<!`) — what makes matching linear in time.
 */
export function patternProblem(pattern: string): string | null {
  try {
    compilePattern(pattern);
    return null;
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : 'it does not compile';
    return `is not a regular expression RE2 can use (${why}); RE2 syntax has no backreferences and no lookarounds`;
  }
}

/** Why a `default_format` cannot be used for a data type, or null. */
export function defaultFormatProblem(dataType: DataType, format: string): string | null {
  if (dataType === 'date' || dataType === 'datetime') {
    const p = timeFormatProblem(format);
    return p && `Default format ${p}`;
  }
  if (dataType === 'number') {
    const p = numberFormatProblem(format);
    return p && `Default format ${p}`;
  }
  return 'Default format applies to number, date and datetime fields only';
}

/** A definition's fields as checked (the API's attributes, read). */
export interface DefinitionFields extends ValueRules {
  entityType: EntityType;
  description: string | null;
  defaultValue: FieldValue;
}

/** A definition's attributes as a create sends them (types already checked by the request schema). */
export interface DefinitionAttributes {
  entity_type?: string | undefined;
  api_slug?: string | undefined;
  display_name?: string | null | undefined;
  description?: string | null | undefined;
  data_type?: string | undefined;
  reference_type?: string | null | undefined;
  validation?: unknown;
  default_format?: string | null | undefined;
  default_value?: unknown;
}

/** What PATCH may change; `entity_type`, `api_slug`, `data_type` and `reference_type` are fixed after creation. */
export const UPDATABLE = ['display_name', 'description', 'validation', 'default_format', 'default_value'] as const;

/**
 * Reads a definition's attributes: a create (`existing` absent) or an update of `existing` (only UPDATABLE keys are
 * read; the others must be absent or unchanged). Every problem at once; `default_value` is checked with `options`.
 */
export function readDefinition(
  attrs: DefinitionAttributes,
  options: readonly OptionRef[],
  existing?: DefinitionFields,
): { definition: DefinitionFields } | { problems: Problem[] } {
  const problems: Problem[] = [];
  const has = (k: keyof DefinitionAttributes) => Object.hasOwn(attrs, k) && attrs[k] !== undefined;
  let entityType = existing?.entityType ?? null;
  let apiSlug = existing?.apiSlug ?? '';
  let dataType = existing?.dataType ?? null;
  let referenceType = existing?.referenceType ?? null;
  if (existing) {
    const fixed: [keyof DefinitionAttributes, unknown][] = [
      ['entity_type', has('entity_type') ? readEntityType(attrs.entity_type!) : existing.entityType],
      ['api_slug', attrs.api_slug ?? existing.apiSlug],
      ['data_type', attrs.data_type ?? existing.dataType],
      ['reference_type', has('reference_type') ? attrs.reference_type : existing.referenceType],
    ];
    const shown: Record<string, unknown> = {
      entity_type: existing.entityType,
      api_slug: existing.apiSlug,
      data_type: existing.dataType,
      reference_type: existing.referenceType,
    };
    for (const [k, v] of fixed) {
      if (v !== shown[k]) problems.push({ field: k, detail: `${words(k)} cannot be changed after creation` });
    }
  } else {
    entityType = readEntityType(attrs.entity_type ?? '');
    if (!entityType) problems.push({ field: 'entity_type', detail: `Entity type must be one of ${ENTITY_TYPE_SPELLINGS.join(', ')}` });
    apiSlug = attrs.api_slug ?? '';
    const slug = slugProblem(apiSlug);
    if (slug) problems.push({ field: 'api_slug', detail: apiSlug ? slug : "Api slug can't be blank" });
    dataType = (DATA_TYPES as readonly string[]).includes(attrs.data_type ?? '') ? (attrs.data_type as DataType) : null;
    if (!dataType) problems.push({ field: 'data_type', detail: `Data type must be one of ${DATA_TYPES.join(', ')}` });
    const ref = attrs.reference_type ?? null;
    if (dataType === 'reference') {
      referenceType = (ENTITY_REF_TYPES as readonly string[]).includes(ref ?? '') ? (ref as EntityRefType) : null;
      if (!referenceType)
        problems.push({
          field: 'reference_type',
          detail: `Reference type must be one of ${ENTITY_REF_TYPES.join(', ')} for a reference field`,
        });
    } else if (ref !== null && ref !== '') {
      problems.push({ field: 'reference_type', detail: 'Reference type applies to reference fields only' });
    }
  }
  const displayName = has('display_name') ? (attrs.display_name ?? '').trim() : (existing?.displayName ?? '');
  if (!displayName) problems.push({ field: 'display_name', detail: "Display name can't be blank" });
  else if (chars(displayName) > LIMITS.displayNameLength) {
    problems.push({ field: 'display_name', detail: `Display name is too long (maximum is ${LIMITS.displayNameLength} characters)` });
  }
  const description = has('description') ? attrs.description || null : (existing?.description ?? null);
  if (description && chars(description) > LIMITS.descriptionLength) {
    problems.push({ field: 'description', detail: `Description is too long (maximum is ${LIMITS.descriptionLength} characters)` });
  }
  // Without a data type (or entity type) nothing below means anything; otherwise every problem is reported at once.
  if (!dataType || !entityType) return { problems };

  let validation = existing?.validation ?? null;
  if (has('validation')) {
    const read = readValidation(dataType, attrs.validation);
    if ('problem' in read) problems.push({ field: read.key ? `validation/${read.key}` : 'validation', detail: read.problem });
    else validation = read.validation;
  }
  const defaultFormat = has('default_format') ? attrs.default_format || null : (existing?.defaultFormat ?? null);
  if (defaultFormat !== null && has('default_format')) {
    const p = defaultFormatProblem(dataType, defaultFormat);
    if (p) problems.push({ field: 'default_format', detail: p });
  }
  const rules: ValueRules = { apiSlug, displayName, dataType, referenceType, validation, defaultFormat };
  let defaultValue: FieldValue = existing?.defaultValue ?? null;
  const unreadableReference = dataType === 'reference' && !referenceType;
  if (!unreadableReference && (has('default_value') || (has('validation') && defaultValue !== null))) {
    const raw = has('default_value') ? attrs.default_value : defaultValue;
    // A null default is no default, even for a required field.
    const checked = raw === null ? { value: null } : checkValue(rules, raw, options);
    if ('problem' in checked) problems.push({ field: 'default_value', detail: checked.problem.replace(/^Value of/, 'Default value of') });
    else defaultValue = checked.value;
  }
  if (problems.length) return { problems };
  return { definition: { ...rules, entityType, description, defaultValue } };
}

const words = (k: string) => `${k.charAt(0).toUpperCase()}${k.slice(1).replace(/_/g, ' ')}`;

/** A definition as the service answers it. */
export interface CustomFieldDefinition extends DefinitionFields {
  id: string;
  accountId: string;
  /** Its options' ids, in order (position, then value). */
  optionIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** An option of an enum or enum_multi definition. */
export interface CustomFieldOption {
  id: string;
  accountId: string;
  definitionId: string;
  label: string;
  value: string;
  position: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One value of one definition on one record, with what it shows. */
export interface CustomField {
  id: string;
  accountId: string;
  definitionId: string;
  apiSlug: string;
  entityType: EntityRefType;
  entityId: string;
  value: FieldValue;
  displayValue: string | null;
  createdAt: Date;
  updatedAt: Date;
}

// ---------- values ----------

const name = (r: ValueRules) => `${r.displayName} (${r.apiSlug})`;

/** The day `YYYY-MM-DD` names, if it exists. */
function calendarDate(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && y >= 1 ? text : null;
}

/** An ISO 8601 date-time with `Z` or an offset naming a real moment, in UTC seconds (`isoSeconds`), or null. */
function instant(text: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.exec(text);
  if (!m || !calendarDate(m[1]!)) return null;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Why a number does not fit precision 18 / scale 6, or null. */
function numberProblem(v: number): string | null {
  if (!Number.isFinite(v)) return 'must be a finite number';
  if (Math.abs(v) >= 10 ** LIMITS.numberDigitsBeforePoint)
    return `must have at most ${LIMITS.numberDigitsBeforePoint} digits before the point`;
  const text = String(v);
  const decimals = text.includes('e') ? Infinity : (text.split('.')[1]?.length ?? 0);
  if (decimals > LIMITS.numberDecimals) return `must have at most ${LIMITS.numberDecimals} decimals`;
  if (significantDigits(text) > LIMITS.numberSignificantDigits) {
    return `must have at most ${LIMITS.numberSignificantDigits} significant digits (a JSON number holds no more exactly; it would be stored rounded)`;
  }
  return null;
}

/** The significant digits of a decimal text (`-0.00120` has 3): what a double holds exactly up to 15 of. */
export function significantDigits(text: string): number {
  const digits = text
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '');
  return digits.replace(/^0+/, '').replace(/0+$/, '').length || 1;
}

/** A decimal number as a filter spells it: digits, an optional point and decimals, an optional sign; no hex, no exponent. */
const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

const typeWords: Record<DataType, string> = {
  short_text: 'a string',
  number: 'a number',
  date: 'a date (YYYY-MM-DD)',
  datetime: 'an ISO 8601 date-time with a time zone offset',
  boolean: 'true or false',
  enum: "one of the field's option values",
  enum_multi: "a list of the field's option values",
  reference: 'an object {type, id} naming a record',
};

/**
 * Checks `value` for the definition and answers it as stored (a date read with `default_format` becomes
 * `YYYY-MM-DD`, a date-time UTC seconds), or a sentence naming the field. `options` are the definition's (enum types);
 * a reference's record is not looked up here (the service does, in the caller's account).
 */
export function checkValue(rules: ValueRules, value: unknown, options: readonly OptionRef[]): { value: FieldValue } | { problem: string } {
  const v = rules.validation ?? {};
  const wrong = () => ({ problem: `Value of ${name(rules)} must be ${typeWords[rules.dataType]}` });
  const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) {
    if (v.required) return { problem: `Value of ${name(rules)} is required` };
    if (value === null || value === undefined) return { value: null };
  }
  switch (rules.dataType) {
    case 'short_text': {
      if (typeof value !== 'string') return wrong();
      const max = v.max_length ?? LIMITS.shortTextLength;
      if (chars(value) > max) return { problem: `Value of ${name(rules)} is too long (maximum is ${max} characters)` };
      if (UNSTORABLE.test(value))
        return { problem: `Value of ${name(rules)} holds a character that cannot be stored (NUL or a lone surrogate)` };
      if (v.pattern && value !== '') {
        const p = patternProblem(v.pattern);
        // A pattern stored before patterns were RE2's (a lookahead, say) cannot be matched: the definition must change.
        if (p) return { problem: `Value of ${name(rules)} cannot be checked: its validation pattern ${p}; change the pattern` };
        if (!compilePattern(v.pattern).test(value)) return { problem: `Value of ${name(rules)} does not match the pattern ${v.pattern}` };
      }
      return { value };
    }
    case 'number': {
      if (typeof value !== 'number') return wrong();
      const p = numberProblem(value);
      if (p) return { problem: `Value of ${name(rules)} ${p}` };
      if (v.min !== undefined && value < v.min) return { problem: `Value of ${name(rules)} must be at least ${v.min}` };
      if (v.max !== undefined && value > v.max) return { problem: `Value of ${name(rules)} must be at most ${v.max}` };
      return { value: Object.is(value, -0) ? 0 : value };
    }
    case 'date': {
      if (typeof value !== 'string') return wrong();
      const day = calendarDate(value) ?? (rules.defaultFormat ? parseDateWith(rules.defaultFormat, value) : null);
      if (!day) {
        const also = rules.defaultFormat ? ` or ${rules.defaultFormat}` : '';
        return { problem: `Value of ${name(rules)} must be a date that exists, as YYYY-MM-DD${also}` };
      }
      return { value: day };
    }
    case 'datetime': {
      if (typeof value !== 'string') return wrong();
      const at = instant(value);
      return at ? { value: at } : wrong();
    }
    case 'boolean':
      return typeof value === 'boolean' ? { value } : wrong();
    case 'enum': {
      if (typeof value !== 'string') return wrong();
      if (value === '') return { value: null };
      return options.some((o) => o.value === value)
        ? { value }
        : { problem: `Value of ${name(rules)} '${value}' is not one of its options` };
    }
    case 'enum_multi': {
      if (!Array.isArray(value) || !value.every((x) => typeof x === 'string')) return wrong();
      if (value.length > LIMITS.enumMultiValues)
        return { problem: `Value of ${name(rules)} has more than ${LIMITS.enumMultiValues} values` };
      if (new Set(value).size !== value.length) return { problem: `Value of ${name(rules)} names an option more than once` };
      const unknown = value.find((x) => !options.some((o) => o.value === x));
      if (unknown !== undefined) return { problem: `Value of ${name(rules)} '${unknown}' is not one of its options` };
      return { value: [...value] };
    }
    case 'reference': {
      if (!isPlainObject(value) || Object.keys(value).some((k) => k !== 'type' && k !== 'id')) return wrong();
      if (value.type !== rules.referenceType)
        return { problem: `Value of ${name(rules)} must name a ${rules.referenceType} (type '${rules.referenceType}')` };
      if (typeof value.id !== 'string' || !UUID.test(value.id))
        return { problem: `Value of ${name(rules)} must have the id (a UUID) of a ${rules.referenceType}` };
      return { value: { type: value.type as EntityRefType, id: value.id.toLowerCase() } };
    }
  }
}

// ---------- what a value shows and how it compares ----------

/**
 * `display_value`: short text unchanged; numbers, dates and date-times in `default_format` (dates `YYYY-MM-DD`,
 * date-times `YYYY-MM-DD HH:MM:SS` UTC without one); booleans `Yes` / `No`; an enum's option label (its raw value
 * once the option is gone), an enum_multi's labels joined with `, `; a reference's id. Null for null.
 */
export function displayValue(
  rules: Pick<ValueRules, 'dataType' | 'defaultFormat'>,
  value: FieldValue,
  options: readonly OptionRef[],
): string | null {
  if (value === null) return null;
  const fmt = rules.defaultFormat;
  const label = (x: string) => options.find((o) => o.value === x)?.label ?? x;
  switch (rules.dataType) {
    case 'number':
      return typeof value === 'number' && fmt ? formatNumber(fmt, value) : String(value);
    case 'date':
      return typeof value === 'string' && fmt ? formatTime(fmt, Date.parse(`${value}T00:00:00Z`)) : String(value);
    case 'datetime':
      if (typeof value !== 'string') return String(value);
      return fmt ? formatTime(fmt, Date.parse(value)) : value.replace('T', ' ').replace(/Z$/, '');
    case 'boolean':
      return value === true ? 'Yes' : value === false ? 'No' : String(value);
    case 'enum':
      return typeof value === 'string' ? label(value) : String(value);
    case 'enum_multi':
      return Array.isArray(value) ? value.map(label).join(', ') : String(value);
    case 'reference':
      return typeof value === 'object' && !Array.isArray(value) ? value.id : String(value);
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/**
 * The comparable form(s) of a stored value, which `filter[custom_fields][<slug>]` matches (stored with the value):
 * one for a scalar (a number in its shortest decimal form, a boolean `true`/`false`, a reference its id), the
 * option values of an enum_multi, none for null.
 */
export function comparableKeys(dataType: DataType, value: FieldValue): string[] {
  if (value === null) return [];
  if (dataType === 'enum_multi' && Array.isArray(value)) return [...value];
  if (typeof value === 'object' && !Array.isArray(value)) return [value.id.toLowerCase()];
  return [String(value)];
}

/**
 * The comparable form of a filter's text for a definition's data type, matched against `comparableKeys`:
 * `true`/`false` for booleans, a number read numerically, `YYYY-MM-DD` for dates, an instant for date-times.
 */
export function filterKey(dataType: DataType, text: string): { key: string } | { problem: string } {
  switch (dataType) {
    case 'boolean':
      return text === 'true' || text === 'false' ? { key: text } : { problem: 'must be true or false' };
    case 'number': {
      const t = text.trim();
      return DECIMAL.test(t)
        ? { key: String(Number(t)) }
        : { problem: 'must be a number written in decimal (digits, an optional point and sign)' };
    }
    case 'date':
      return calendarDate(text) ? { key: text } : { problem: 'must be a date as YYYY-MM-DD' };
    case 'datetime': {
      const at = instant(text);
      return at ? { key: at } : { problem: 'must be an ISO 8601 date-time with a time zone offset' };
    }
    case 'reference':
      return { key: text.toLowerCase() };
    default:
      return { key: text };
  }
}

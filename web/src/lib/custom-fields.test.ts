// Custom fields: input ↔ value per data type, the list documents read into definitions, and the list URL's
// filters and column (lib/custom-fields.ts, lib/custom-fields-query.ts).
import { describe, expect, it } from 'vitest';
import {
  type CustomFieldValue,
  type DataType,
  datetimeLocalOf,
  type Definition,
  type DefinitionAttributes,
  definitionsOf,
  displayOf,
  draftOf,
  inputKindOf,
  isoOfDatetimeLocal,
  valueFromDraft,
  valuesBySlug,
} from './custom-fields';
import {
  COLUMN_PARAM,
  columnOf,
  customFilterParams,
  customFilterQuery,
  customFiltersOf,
  filterDraftOf,
  filterTextOf,
  includedDisplayValue,
} from './custom-fields-query';
import { Included } from './jsonapi';

const def = (dataType: DataType, more: Partial<Definition> = {}): Definition => ({
  id: `def-${dataType}`,
  slug: dataType,
  name: dataType,
  description: null,
  dataType,
  referenceType: dataType === 'reference' ? 'shipment' : null,
  options: [],
  ...more,
});

describe('valueFromDraft: what an input holds → the value sent', () => {
  it.each<[DataType, string | string[], CustomFieldValue]>([
    ['short_text', 'PO-7781', 'PO-7781'],
    ['short_text', '  spaced  ', '  spaced  '],
    ['number', '12', 12],
    ['number', ' -4.5 ', -4.5],
    ['number', '1e3', 1000],
    ['number', '.25', 0.25],
    ['date', '2026-12-09', '2026-12-09'],
    ['date', '2028-02-29', '2028-02-29'],
    ['datetime', '2026-12-09T14:30', '2026-12-09T14:30:00Z'],
    ['datetime', '2026-12-09T14:30:15', '2026-12-09T14:30:15Z'],
    ['datetime', '2026-12-09T14:30:15.250', '2026-12-09T14:30:15Z'],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['enum', 'reefer', 'reefer'],
    ['enum_multi', ['a', 'b'], ['a', 'b']],
    ['enum_multi', 'a', ['a']],
    ['reference', ' 0b7c-11 ', { type: 'shipment', id: '0b7c-11' }],
  ])('%s %j → %j', (type, draft, value) => {
    expect(valueFromDraft(def(type), draft)).toEqual({ ok: true, value });
  });

  it.each<[DataType, string | string[], string]>([
    ['short_text', '', 'Enter a text, or clear the field.'],
    ['number', '', 'Enter a number, such as 12 or 4.5.'],
    ['number', '12 kg', 'Enter a number, such as 12 or 4.5.'],
    ['number', '1,5', 'Enter a number, such as 12 or 4.5.'],
    ['number', 'Infinity', 'Enter a number, such as 12 or 4.5.'],
    ['date', '', 'Enter a date.'],
    ['date', '2026-02-30', 'Enter a date.'],
    ['date', '09/12/2026', 'Enter a date.'],
    ['datetime', '2026-12-09', 'Enter a date and a time.'],
    ['datetime', '2026-12-09T24:00', 'Enter a date and a time.'],
    ['boolean', '', 'Choose Yes or No.'],
    ['enum', '', 'Choose an option.'],
    ['enum_multi', [], 'Choose at least one option, or clear the field.'],
    ['reference', '  ', 'Enter the id of a shipment.'],
  ])('%s %j is refused: %s', (type, draft, message) => {
    expect(valueFromDraft(def(type), draft)).toEqual({ ok: false, message });
  });

  it('names the reference type in words', () => {
    expect(valueFromDraft(def('reference', { referenceType: 'tracking_request' }), '')).toEqual({
      ok: false,
      message: 'Enter the id of a tracking request.',
    });
  });

  it('refuses a reference whose definition names no type', () => {
    expect(valueFromDraft(def('reference', { referenceType: null }), 'abc')).toMatchObject({ ok: false });
  });
});

describe('draftOf: a stored value → what the input starts from', () => {
  it.each<[DataType, CustomFieldValue | undefined, string | string[]]>([
    ['short_text', 'PO-7781', 'PO-7781'],
    ['short_text', null, ''],
    ['short_text', undefined, ''],
    ['number', 4.5, '4.5'],
    ['number', 0, '0'],
    ['date', '2026-12-09', '2026-12-09'],
    ['datetime', '2026-12-09T14:30:00Z', '2026-12-09T14:30'],
    ['datetime', '2026-12-09T16:30:15+02:00', '2026-12-09T14:30:15'],
    ['datetime', 'not a time', ''],
    ['boolean', true, 'true'],
    ['boolean', false, 'false'],
    ['boolean', null, ''],
    ['enum', 'reefer', 'reefer'],
    ['enum_multi', ['a', 'b'], ['a', 'b']],
    ['enum_multi', null, []],
    ['reference', { type: 'shipment', id: 'abc' }, 'abc'],
    ['reference', null, ''],
  ])('%s %j → %j', (type, value, draft) => {
    expect(draftOf(def(type), value)).toEqual(draft);
  });

  it.each<[DataType, CustomFieldValue]>([
    ['short_text', 'x'],
    ['number', -12.25],
    ['date', '2026-01-31'],
    ['datetime', '2026-01-31T23:59:00Z'],
    ['boolean', false],
    ['enum', 'dry'],
    ['enum_multi', ['dry', 'reefer']],
    ['reference', { type: 'shipment', id: 'abc' }],
  ])('%s: a value survives the round trip through its input', (type, value) => {
    expect(valueFromDraft(def(type), draftOf(def(type), value))).toEqual({ ok: true, value });
  });
});

describe('datetimes are edited in UTC', () => {
  it('reads an instant with any offset as UTC', () => {
    expect(datetimeLocalOf('2026-03-01T01:30:00-05:00')).toBe('2026-03-01T06:30');
  });
  it('refuses what names no instant', () => {
    expect(isoOfDatetimeLocal('')).toBeNull();
    expect(isoOfDatetimeLocal('2026-13-01T10:00')).toBeNull();
    expect(isoOfDatetimeLocal('2026-03-01T10:60')).toBeNull();
    expect(isoOfDatetimeLocal('2026-03-01 10:00')).toBeNull();
  });
});

describe('inputKindOf', () => {
  it.each<[DataType, string]>([
    ['short_text', 'text'],
    ['number', 'number'],
    ['date', 'date'],
    ['datetime', 'datetime-local'],
    ['boolean', 'yes-no'],
    ['enum', 'select'],
    ['enum_multi', 'multi-select'],
    ['reference', 'reference'],
  ])('%s → %s', (type, kind) => {
    expect(inputKindOf(type)).toBe(kind);
  });
});

describe('displayOf', () => {
  it('shows the display value', () => {
    expect(displayOf({ api_slug: 'x', value: true, display_value: 'Yes' })).toBe('Yes');
  });
  it('falls back to the value in words', () => {
    expect(displayOf({ api_slug: 'x', value: false, display_value: null })).toBe('No');
    expect(displayOf({ api_slug: 'x', value: ['a', 'b'], display_value: null })).toBe('a, b');
    expect(displayOf({ api_slug: 'x', value: 3, display_value: '' })).toBe('3');
  });
  it('is nothing without a value', () => {
    expect(displayOf(undefined)).toBeNull();
    expect(displayOf({ api_slug: 'x', value: null, display_value: null })).toBeNull();
  });
});

/** A definition as the API answers it, with these attributes. */
const wireDefinition = (attrs: Partial<DefinitionAttributes>): DefinitionAttributes => ({
  entity_type: 'Container',
  api_slug: 'x',
  display_name: 'X',
  description: null,
  data_type: 'short_text',
  reference_type: null,
  validation: null,
  default_format: null,
  default_value: null,
  template_id: null,
  created_at: '2026-03-01T12:00:00Z',
  updated_at: '2026-03-01T12:00:00Z',
  ...attrs,
});

describe('definitionsOf', () => {
  it('takes each definition with its included options, in the relationship’s order', () => {
    const defs = definitionsOf({
      data: [
        {
          id: 'd1',
          type: 'custom_field_definition',
          attributes: wireDefinition({ api_slug: 'kind', display_name: 'Kind', description: 'What is inside', data_type: 'enum' }),
          relationships: {
            options: {
              data: [
                { type: 'custom_field_option', id: 'o2' },
                { type: 'custom_field_option', id: 'o1' },
              ],
            },
          },
        },
        {
          id: 'd2',
          type: 'custom_field_definition',
          attributes: wireDefinition({ api_slug: 'po', display_name: 'PO' }),
        },
      ],
      included: [
        { id: 'o1', type: 'custom_field_option', attributes: { label: 'Reefer', value: 'reefer', position: 2 } },
        { id: 'o2', type: 'custom_field_option', attributes: { label: 'Dry', value: 'dry', position: 1 } },
      ],
    });
    expect(defs.map((d) => [d.slug, d.name, d.dataType, d.options.map((o) => o.value)])).toEqual([
      ['kind', 'Kind', 'enum', ['dry', 'reefer']],
      ['po', 'PO', 'short_text', []],
    ]);
    expect(defs[0]!.description).toBe('What is inside');
  });

  it('values by slug', () => {
    const map = valuesBySlug([{ id: 'f1', type: 'custom_field', attributes: { api_slug: 'po', value: 'A', display_value: 'A' } }]);
    expect(map.get('po')?.value).toBe('A');
    expect(map.has('kind')).toBe(false);
  });
});

describe('the list URL: custom-field filters and the column', () => {
  it('reads the filters kept as cf.<slug>, only well-formed slugs with a value, in slug order', () => {
    const search = new URLSearchParams('q=x&cf.po_number=PO-1&cf.Bad=1&cf.empty=&cf.a_flag=true&cf.9x=2&page=2');
    expect(customFiltersOf(search)).toEqual({ a_flag: 'true', po_number: 'PO-1' });
    expect(Object.keys(customFiltersOf(search))).toEqual(['a_flag', 'po_number']);
  });

  it('writes the filters: the ones that go are removed, the others left alone', () => {
    const current = new URLSearchParams('q=x&cf.old=1&cf.po_number=PO-1');
    expect(customFilterParams(current, { po_number: ' PO-2 ' })).toEqual({ 'cf.old': null, 'cf.po_number': 'PO-2' });
    expect(customFilterParams(current, {})).toEqual({ 'cf.old': null, 'cf.po_number': null });
    expect(customFilterParams(new URLSearchParams(''), { 'Not a slug': 'x', ok: '' })).toEqual({});
  });

  it('survives the URL round trip', () => {
    const params = customFilterParams(new URLSearchParams(''), { po_number: 'PO 1 & 2', reefer: 'true' });
    const url = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== null) url.set(k, v);
    expect(customFiltersOf(new URLSearchParams(url.toString()))).toEqual({ po_number: 'PO 1 & 2', reefer: 'true' });
  });

  it('asks the API with filter[custom_fields][<slug>]', () => {
    expect(customFilterQuery({ po_number: 'PO-1', reefer: 'true' })).toEqual({
      'filter[custom_fields][po_number]': 'PO-1',
      'filter[custom_fields][reefer]': 'true',
    });
    expect(customFilterQuery({})).toEqual({});
  });

  it('reads the column', () => {
    expect(columnOf(new URLSearchParams(`${COLUMN_PARAM}=po_number`))).toBe('po_number');
    expect(columnOf(new URLSearchParams(`${COLUMN_PARAM}=DROP%20TABLE`))).toBeNull();
    expect(columnOf(new URLSearchParams(''))).toBeNull();
  });
});

describe('filterTextOf: a filter input → the text the API compares', () => {
  it.each<[DataType, string, string]>([
    ['short_text', 'PO-1', 'PO-1'],
    ['number', '4.50', '4.5'],
    ['date', '2026-12-09', '2026-12-09'],
    ['datetime', '2026-12-09T14:30', '2026-12-09T14:30:00Z'],
    ['boolean', 'false', 'false'],
    ['enum', 'dry', 'dry'],
    ['enum_multi', 'reefer', 'reefer'],
    ['reference', 'abc', 'abc'],
  ])('%s %j → %j', (type, draft, text) => {
    expect(filterTextOf(def(type), draft)).toEqual({ ok: true, value: text });
  });

  it('refuses what the type cannot read', () => {
    expect(filterTextOf(def('number'), 'many')).toEqual({ ok: false, message: 'Enter a number, such as 12 or 4.5.' });
    expect(filterTextOf(def('enum_multi'), '')).toEqual({ ok: false, message: 'Choose an option.' });
  });

  it('shows a datetime filter in its input as UTC', () => {
    expect(filterDraftOf(def('datetime'), '2026-12-09T14:30:00Z')).toBe('2026-12-09T14:30');
    expect(filterDraftOf(def('short_text'), 'PO-1')).toBe('PO-1');
  });
});

describe('includedDisplayValue', () => {
  const included = new Included([
    { id: 'f1', type: 'custom_field', attributes: { api_slug: 'po_number', value: 'PO-1', display_value: 'PO-1' } },
    { id: 'f2', type: 'custom_field', attributes: { api_slug: 'reefer', value: true, display_value: 'Yes' } },
    { id: 'f3', type: 'custom_field', attributes: { api_slug: 'po_number', value: 'PO-9', display_value: 'PO-9' } },
  ]);
  const shipment = (ids: string[]) => ({
    id: 's1',
    type: 'shipment',
    attributes: {},
    relationships: { custom_fields: { data: ids.map((id) => ({ type: 'custom_field', id })) } },
  });

  it('is the display value of the resource’s own field with that slug', () => {
    expect(includedDisplayValue(shipment(['f1', 'f2']), included, 'reefer')).toBe('Yes');
    expect(includedDisplayValue(shipment(['f3']), included, 'po_number')).toBe('PO-9');
  });
  it('is null when the resource has none', () => {
    expect(includedDisplayValue(shipment(['f2']), included, 'po_number')).toBeNull();
    expect(includedDisplayValue({ id: 's2', type: 'shipment', attributes: {} }, included, 'po_number')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  checkValue,
  comparableKeys,
  type DataType,
  type DefinitionFields,
  displayValue,
  type EntityRefType,
  filterKey,
  patternProblem,
  readDefinition,
  readEntityType,
  readValidation,
  slugProblem,
  type Validation,
  type ValueRules,
} from './custom-fields.js';

const rules = (dataType: DataType, more: Partial<ValueRules> = {}): ValueRules => ({
  apiSlug: 'po_number',
  displayName: 'PO number',
  dataType,
  referenceType: dataType === 'reference' ? 'shipment' : null,
  validation: null,
  defaultFormat: null,
  ...more,
});
const OPTIONS = [
  { value: 'red', label: 'Red' },
  { value: 'blue', label: 'Deep blue' },
];
const ID = '0190a7f2-1c2d-7e3f-8a9b-0c1d2e3f4a5b';

describe('readEntityType: the spellings clients send', () => {
  it.each([
    ['Shipment', 'Shipment'],
    ['shipment', 'Shipment'],
    ['Container', 'Container'],
    ['container', 'Container'],
    ['Cargo', 'Container'],
    ['TrackingRequest', 'TrackingRequest'],
    ['tracking_request', 'TrackingRequest'],
    ['SHIPMENT', null],
    ['cargo', null],
    ['', null],
  ])('%j → %j', (text, type) => {
    expect(readEntityType(text)).toBe(type);
  });
});

describe('slugProblem', () => {
  it.each([
    ['po_number', true],
    ['a', true],
    [`a${'b'.repeat(62)}`, true],
    [`a${'b'.repeat(63)}`, false],
    ['1abc', false],
    ['_abc', false],
    ['PoNumber', false],
    ['po-number', false],
    ['po number', false],
    ['', false],
  ])('%j ok=%s', (slug, ok) => {
    expect(slugProblem(slug) === null).toBe(ok);
  });
});

describe('checkValue: each data type, good and bad', () => {
  type Row = [string, DataType, Partial<ValueRules>, unknown, unknown];
  const good: Row[] = [
    ['text', 'short_text', {}, 'PO-1', 'PO-1'],
    ['text at the limit', 'short_text', {}, 'x'.repeat(1000), 'x'.repeat(1000)],
    ['emoji count as one character', 'short_text', {}, '🚢'.repeat(1000), '🚢'.repeat(1000)],
    ['empty text, not required', 'short_text', {}, '', ''],
    ['text matching the pattern', 'short_text', { validation: { pattern: '^PO-\\d+$' } }, 'PO-12', 'PO-12'],
    ['null', 'short_text', {}, null, null],
    ['an integer', 'number', {}, 42, 42],
    ['six decimals', 'number', {}, 1.123456, 1.123456],
    ['twelve digits', 'number', {}, 999999999999, 999999999999],
    ['negative zero is zero', 'number', {}, -0, 0],
    ['within min and max', 'number', { validation: { min: 0, max: 10 } }, 10, 10],
    ['a date', 'date', {}, '2024-02-29', '2024-02-29'],
    ['a date in the default format', 'date', { defaultFormat: '%d/%m/%Y' }, '05/03/2026', '2026-03-05'],
    ['an ISO date even with a default format', 'date', { defaultFormat: '%d/%m/%Y' }, '2026-03-05', '2026-03-05'],
    ['a date-time with an offset, in UTC seconds', 'datetime', {}, '2026-03-05T10:00:00.750+02:00', '2026-03-05T08:00:00Z'],
    ['a date-time in UTC', 'datetime', {}, '2026-03-05T10:00Z', '2026-03-05T10:00:00Z'],
    ['true', 'boolean', {}, true, true],
    ['false', 'boolean', {}, false, false],
    ['an option value', 'enum', {}, 'red', 'red'],
    ['an empty enum is none', 'enum', {}, '', null],
    ['option values', 'enum_multi', {}, ['blue', 'red'], ['blue', 'red']],
    ['no option values', 'enum_multi', {}, [], []],
    ['a shipment', 'reference', {}, { type: 'shipment', id: ID.toUpperCase() }, { type: 'shipment', id: ID }],
  ];
  it('takes 15 significant digits: 12 before the point and 3 after, or 9 and 6', () => {
    for (const v of [123456789012.345, 123456789.123456, -0.000001]) expect(checkValue(rules('number', {}), v, [])).toEqual({ value: v });
  });

  it.each(good)('takes %s', (_name, type, more, value, stored) => {
    expect(checkValue(rules(type, more), value, OPTIONS)).toEqual({ value: stored });
  });

  const bad: Row[] = [
    ['a number for text', 'short_text', {}, 7, /PO number \(po_number\) must be a string/],
    ['text over 1,000 characters', 'short_text', {}, 'x'.repeat(1001), /too long \(maximum is 1000 characters\)/],
    ['text over max_length', 'short_text', { validation: { max_length: 3 } }, 'abcd', /maximum is 3/],
    ['a NUL', 'short_text', {}, 'a\u0000b', /cannot be stored/],
    ['a lone surrogate', 'short_text', {}, 'a\ud800b', /cannot be stored/],
    ['text not matching the pattern', 'short_text', { validation: { pattern: '^PO-\\d+$' } }, 'X-1', /does not match the pattern/],
    ['required and null', 'short_text', { validation: { required: true } }, null, /PO number \(po_number\) is required/],
    ['required and empty', 'short_text', { validation: { required: true } }, '', /is required/],
    ['a numeric string', 'number', {}, '12', /must be a number/],
    ['seven decimals', 'number', {}, 1.1234567, /at most 6 decimals/],
    ['tiny exponent', 'number', {}, 1e-7, /at most 6 decimals/],
    ['thirteen digits', 'number', {}, 1e12, /at most 12 digits/],
    // 16 significant digits: a double holds 15 exactly, more would be stored rounded.
    ['sixteen significant digits', 'number', {}, 1234567890.123456, /at most 15 significant digits/],
    ['sixteen significant digits, negative', 'number', {}, -123456789012.0001, /at most 15 significant digits/],
    ['below min', 'number', { validation: { min: 1 } }, 0.5, /at least 1/],
    ['above max', 'number', { validation: { max: 1 } }, 2, /at most 1/],
    ['a day that does not exist', 'date', {}, '2026-02-30', /must be a date that exists, as YYYY-MM-DD/],
    ['a date-time for a date', 'date', {}, '2026-03-05T00:00:00Z', /YYYY-MM-DD/],
    ['another format', 'date', { defaultFormat: '%d/%m/%Y' }, '03-05-2026', /YYYY-MM-DD or %d\/%m\/%Y/],
    ['a number for a date', 'date', {}, 20260305, /must be a date/],
    ['a date-time without a zone', 'datetime', {}, '2026-03-05T10:00:00', /with a time zone offset/],
    ['a date for a date-time', 'datetime', {}, '2026-03-05', /ISO 8601/],
    ['hour 24', 'datetime', {}, '2026-03-05T24:00:00Z', /ISO 8601/],
    ['"true" as text', 'boolean', {}, 'true', /must be true or false/],
    ['1 for a boolean', 'boolean', {}, 1, /must be true or false/],
    ['required boolean null', 'boolean', { validation: { required: true } }, null, /is required/],
    ['an unknown option', 'enum', {}, 'green', /'green' is not one of its options/],
    ['a label, not a value', 'enum', {}, 'Red', /'Red' is not one of its options/],
    ['a list for an enum', 'enum', {}, ['red'], /one of the field's option values/],
    ['a string for enum_multi', 'enum_multi', {}, 'red', /a list of the field's option values/],
    ['a repeated option', 'enum_multi', {}, ['red', 'red'], /more than once/],
    ['an unknown option in a list', 'enum_multi', {}, ['red', 'green'], /'green' is not one of its options/],
    ['over 100 values', 'enum_multi', {}, Array.from({ length: 101 }, (_, i) => `v${i}`), /more than 100 values/],
    ['required and empty list', 'enum_multi', { validation: { required: true } }, [], /is required/],
    ['the wrong record type', 'reference', {}, { type: 'container', id: ID }, /must name a shipment/],
    ['an id that is not a UUID', 'reference', {}, { type: 'shipment', id: 'abc' }, /id \(a UUID\)/],
    ['an extra key', 'reference', {}, { type: 'shipment', id: ID, x: 1 }, /an object \{type, id\}/],
    ['a bare id', 'reference', {}, ID, /an object \{type, id\}/],
  ];
  it.each(bad)('refuses %s', (_name, type, more, value, problem) => {
    const checked = checkValue(rules(type, more), value, OPTIONS);
    expect(checked).toHaveProperty('problem');
    expect((checked as { problem: string }).problem).toMatch(problem as RegExp);
  });
});

describe('readValidation', () => {
  it.each([
    ['short_text', { required: true, pattern: '^A', max_length: 10 }, { required: true, pattern: '^A', max_length: 10 }],
    ['number', { min: -1, max: 1 }, { min: -1, max: 1 }],
    ['date', {}, null],
    ['boolean', null, null],
  ] as [DataType, unknown, Validation | null][])('%s takes %j', (type, raw, validation) => {
    expect(readValidation(type, raw)).toEqual({ validation });
  });

  it.each([
    ['short_text', { colour: 'red' }, /unknown key 'colour'/],
    ['short_text', { required: 'yes' }, /required must be true or false/],
    ['number', { pattern: 'x' }, /short_text fields only/],
    ['short_text', { min: 1 }, /number fields only/],
    ['short_text', { max_length: 0 }, /from 1 to 1000/],
    ['short_text', { max_length: 1.5 }, /whole number/],
    ['number', { min: 5, max: 1 }, /min must not be above max/],
    ['short_text', { pattern: '(' }, /not a regular expression RE2 can use/],
    ['short_text', { pattern: '(?=a)b' }, /no lookarounds/],
    ['short_text', [1], /must be an object/],
  ] as [DataType, unknown, RegExp][])('%s refuses %j', (type, raw, problem) => {
    const read = readValidation(type, raw);
    expect((read as { problem: string }).problem).toMatch(problem);
  });
});

describe('patternProblem: a pattern must be RE2 syntax (linear-time matching)', () => {
  it.each([
    ['^PO-\\d{4,8}$', null],
    ['^(?:ABC|DEF)-\\d+$', null],
    ['^[A-Z]+(-[0-9])?$', null],
    ['(a+)+', null],
    ['(a|aa)*', null],
    ['^\\p{L}+$', null],
    ['(a)\\1', /RE2 can use \(invalid escape sequence: `\\1`\); RE2 syntax has no backreferences and no lookarounds/],
    ['(?=a)b', /RE2 can use/],
    ['(?<!a)b', /RE2 can use/],
    ['[', /missing closing \]/],
  ])('%j', (pattern, expected) => {
    const p = patternProblem(pattern);
    if (expected === null) expect(p).toBeNull();
    else expect(p).toMatch(expected);
  });
});

describe('checkValue: a pattern that backtracks exponentially in a backtracking engine answers at once', () => {
  const rules = (pattern: string) => ({
    apiSlug: 'code',
    displayName: 'Code',
    dataType: 'short_text' as const,
    referenceType: null,
    validation: { pattern },
    defaultFormat: null,
  });
  it.each([
    ['^a*a*a*a*a*a*$', `${'a'.repeat(999)}!`, false],
    ['^a*a*a*a*a*a*$', 'a'.repeat(1000), true],
    ['^(a+)+$', `${'a'.repeat(999)}!`, false],
    ['^(a|aa)*$', `${'a'.repeat(999)}!`, false],
  ])('%j on a 1,000-character text', (pattern, text, matches) => {
    expect(readValidation('short_text', { pattern })).toEqual({ validation: { pattern } });
    const read = checkValue(rules(pattern), text, []);
    if (matches) expect(read).toEqual({ value: text });
    else expect(read).toEqual({ problem: `Value of Code (code) does not match the pattern ${pattern}` });
  });

  it('refuses a value of a stored pattern RE2 cannot compile, saying to change the pattern', () => {
    expect((checkValue(rules('^(?!x)'), 'abc', []) as { problem: string }).problem).toMatch(/cannot be checked.*change the pattern/);
  });
});

describe('readDefinition: a create, and an update of what may change', () => {
  const create = {
    entity_type: 'Cargo',
    api_slug: 'colour',
    display_name: ' Colour ',
    data_type: 'enum',
    validation: { required: true },
  };

  it('reads a create, Cargo as a container', () => {
    expect(readDefinition(create, [])).toEqual({
      definition: {
        entityType: 'Container',
        apiSlug: 'colour',
        displayName: 'Colour',
        description: null,
        dataType: 'enum',
        referenceType: null,
        validation: { required: true },
        defaultFormat: null,
        defaultValue: null,
      },
    });
  });

  it('reports every problem of a create at once', () => {
    const read = readDefinition({ entity_type: 'Order', api_slug: 'Bad Slug', display_name: '', data_type: 'money' }, []);
    expect((read as { problems: { field: string }[] }).problems.map((p) => p.field)).toEqual([
      'entity_type',
      'api_slug',
      'data_type',
      'display_name',
    ]);
  });

  it.each([
    [{ data_type: 'reference' }, 'reference_type', /must be one of shipment, container, tracking_request/],
    [{ data_type: 'reference', reference_type: 'vessel' }, 'reference_type', /must be one of/],
    [{ data_type: 'number', reference_type: 'shipment' }, 'reference_type', /reference fields only/],
    [{ data_type: 'boolean', default_format: '%Y' }, 'default_format', /number, date and datetime fields only/],
    [{ data_type: 'date', default_format: '%Q' }, 'default_format', /not a directive/],
    [{ data_type: 'number', default_format: '%s' }, 'default_format', /one directive/],
    [{ data_type: 'boolean', default_value: 'yes' }, 'default_value', /Default value of Colour \(colour\) must be true or false/],
    [{ data_type: 'enum', default_value: 'red' }, 'default_value', /'red' is not one of its options/],
    [{ data_type: 'short_text', validation: { nope: 1 } }, 'validation', /unknown key 'nope'/],
  ])('refuses %j at %s', (more, field, detail) => {
    const read = readDefinition({ ...create, ...more }, []);
    const problems = (read as { problems: { field: string; detail: string }[] }).problems;
    expect(problems).toEqual([{ field, detail: expect.stringMatching(detail) }]);
  });

  it('takes a default value that is valid, a reference type for references', () => {
    const read = readDefinition({ ...create, data_type: 'boolean', default_value: false, validation: null }, []);
    expect(read).toMatchObject({ definition: { defaultValue: false } });
    const ref = readDefinition({ ...create, data_type: 'reference', reference_type: 'tracking_request' }, []);
    expect(ref).toMatchObject({ definition: { referenceType: 'tracking_request' } });
  });

  const existing = (readDefinition({ ...create, data_type: 'short_text', validation: null }, []) as { definition: DefinitionFields })
    .definition;

  it('updates what may change and keeps the rest', () => {
    const read = readDefinition({ display_name: 'Paint', default_value: 'red', validation: { max_length: 5 } }, [], existing);
    expect(read).toEqual({ definition: { ...existing, displayName: 'Paint', defaultValue: 'red', validation: { max_length: 5 } } });
    expect(readDefinition({ entity_type: 'container', api_slug: 'colour' }, [], existing)).toEqual({ definition: existing });
  });

  it.each([
    [{ api_slug: 'other' }, 'api_slug'],
    [{ entity_type: 'Shipment' }, 'entity_type'],
    [{ data_type: 'number' }, 'data_type'],
    [{ reference_type: 'shipment' }, 'reference_type'],
  ])('refuses changing %j', (attrs, field) => {
    expect(readDefinition(attrs, [], existing)).toEqual({ problems: [{ field, detail: expect.stringMatching(/cannot be changed/) }] });
  });

  it('checks the kept default value against new validation', () => {
    const withDefault = { ...existing, defaultValue: 'toolong' };
    const read = readDefinition({ validation: { max_length: 3 } }, [], withDefault);
    expect(read).toEqual({ problems: [{ field: 'default_value', detail: expect.stringMatching(/maximum is 3/) }] });
  });
});

describe('displayValue', () => {
  it.each([
    ['short_text', null, 'PO-1', 'PO-1'],
    ['number', null, 1234.5, '1234.5'],
    ['number', '%,.2f', 1234.5, '1,234.50'],
    ['date', null, '2026-03-05', '2026-03-05'],
    ['date', '%d %b %Y', '2026-03-05', '05 Mar 2026'],
    ['datetime', null, '2026-03-05T08:00:00Z', '2026-03-05 08:00:00'],
    ['datetime', '%d/%m/%Y %H:%M', '2026-03-05T08:00:00Z', '05/03/2026 08:00'],
    ['boolean', null, true, 'Yes'],
    ['boolean', null, false, 'No'],
    ['enum', null, 'blue', 'Deep blue'],
    ['enum', null, 'gone', 'gone'],
    ['enum_multi', null, ['red', 'blue', 'gone'], 'Red, Deep blue, gone'],
    ['enum_multi', null, [], ''],
    ['reference', null, { type: 'shipment', id: ID }, ID],
    ['number', null, null, null],
  ] as [DataType, string | null, never, string | null][])('%s (%s) %j → %j', (dataType, defaultFormat, value, shown) => {
    expect(displayValue({ dataType, defaultFormat }, value, OPTIONS)).toBe(shown);
  });
});

describe('comparableKeys and filterKey agree', () => {
  it.each([
    ['short_text', 'PO-1', 'PO-1', true],
    ['number', 1.5, '1.50', true],
    ['number', 2, '2.0', true],
    ['number', 2, '2.1', false],
    ['number', -0.5, '-.5', true],
    ['number', 16, '16', true],
    ['boolean', true, 'true', true],
    ['boolean', false, 'true', false],
    ['date', '2026-03-05', '2026-03-05', true],
    ['datetime', '2026-03-05T08:00:00Z', '2026-03-05T10:00:00+02:00', true],
    ['enum', 'red', 'red', true],
    ['enum_multi', ['red', 'blue'], 'blue', true],
    ['enum_multi', ['red'], 'blue', false],
    ['reference', { type: 'shipment' as EntityRefType, id: ID }, ID.toUpperCase(), true],
  ] as [DataType, never, string, boolean][])('%s %j matches %j: %s', (dataType, value, text, matches) => {
    const key = filterKey(dataType, text);
    expect(key).toHaveProperty('key');
    expect(comparableKeys(dataType, value).includes((key as { key: string }).key)).toBe(matches);
  });

  it('null has no comparable form', () => {
    expect(comparableKeys('short_text', null)).toEqual([]);
  });

  it.each([
    ['boolean', 'yes'],
    ['number', 'abc'],
    ['number', ''],
    ['number', '0x10'],
    ['number', '0b1'],
    ['number', '1e3'],
    ['number', 'Infinity'],
    ['number', '1_000'],
    ['date', '05/03/2026'],
    ['datetime', '2026-03-05'],
  ] as [DataType, string][])('%s refuses the filter %j', (dataType, text) => {
    expect(filterKey(dataType, text)).toHaveProperty('problem');
  });
});

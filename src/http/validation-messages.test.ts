import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nameOf, parameterOf, type SchemaIssue, sentence } from './validation-messages.js';

/** The issues zod reports for a value, as the HTTP layer receives them (code, message, the rest as params). */
function issuesOf(schema: z.ZodType, value: unknown): SchemaIssue[] {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected the value to fail');
  return result.error.issues.map(({ code, message, path: _, ...params }) => ({ code, message, params }));
}

const first = (schema: z.ZodType, value: unknown, name = 'x') => sentence(name, issuesOf(schema, value)[0]!);

describe('sentence', () => {
  it.each([
    ['a missing value', z.string(), undefined, "x can't be blank", 'blank'],
    ['text for a list', z.array(z.string()), 'a', 'x must be a list, not text', undefined],
    ['a number for text', z.string(), 5, 'x must be text, not a number', undefined],
    ['text for true or false', z.boolean(), 'yes', 'x must be true or false, not text', undefined],
    ['null for an object', z.object({}), null, 'x must be an object, not null', undefined],
    ['a fraction for a whole number', z.number().int(), 1.5, 'x must be a whole number, not a number', undefined],
    ['a value out of a list', z.enum(['a', 'b']), 'c', 'x must be one of a, b', undefined],
    ['another literal', z.literal('tracking_request'), 'shipment', 'x must be tracking_request', undefined],
    ['an empty string', z.string().min(1), '', "x can't be blank", 'blank'],
    ['too long a string', z.string().max(3), 'abcd', 'x must be at most 3 characters long', undefined],
    ['an empty list', z.array(z.string()).min(1), [], 'x must list at least one item', 'blank'],
    ['too long a list', z.array(z.string()).max(2), ['a', 'b', 'c'], 'x must list at most 2 items', undefined],
    ['too small a number', z.number().min(1), 0, 'x must be at least 1', undefined],
    ['not above a bound', z.number().gt(0), 0, 'x must be more than 0', undefined],
    ['not an e-mail address', z.email(), 'nope', 'x must be an e-mail address', undefined],
    ['not a UUID', z.uuid(), 'nope', 'x must be an id (a UUID)', undefined],
    ['not a date-time', z.iso.datetime(), 'nope', 'x must be an ISO 8601 date-time with a zone, e.g. 2026-03-01T14:30:00Z', undefined],
    ['not a date', z.iso.date(), '2026-13-01', 'x must be a date as YYYY-MM-DD', undefined],
    ['not the pattern', z.string().regex(/^[A-Z]{4}$/), 'ab', 'x must match /^[A-Z]{4}$/', undefined],
    ['none of a union of kinds', z.union([z.string(), z.number()]), true, 'x must be text or a number, not true or false', undefined],
    ['a number for one or a list', z.union([z.string(), z.array(z.string())]), 5, 'x must be text or a list, not a number', undefined],
    [
      'none of a union of shapes',
      z.union([z.literal('a'), z.object({ b: z.string() })]),
      { b: 1 },
      'x is none of the forms it takes',
      undefined,
    ],
  ])('%s', (_, schema, value, detail, code) => {
    expect(first(schema as z.ZodType, value)).toEqual(code ? { detail, code } : { detail });
  });

  it("keeps a route's own words: a fragment after the name, a sentence as it is", () => {
    expect(
      first(
        z.string().refine(() => false, 'must be an ISO 8601 date-time'),
        'a',
      ),
    ).toEqual({ detail: 'x must be an ISO 8601 date-time' });
    expect(
      first(
        z.string().refine(() => false, 'Give exactly one of hours or days'),
        'a',
      ),
    ).toEqual({
      detail: 'Give exactly one of hours or days',
    });
  });

  it('never passes the schema library’s wording through', () => {
    expect(sentence('x', { code: 'something_new', message: 'Invalid input' })).toEqual({ detail: 'x is invalid' });
  });
});

describe('names as the client wrote them', () => {
  it.each([
    ['/data/attributes/ref_numbers', 'ref_numbers'],
    ['/data/attributes/ref_numbers/2', 'ref_numbers[2]'],
    ['/data/attributes/headers/0/name', 'headers[0].name'],
    ['/data/relationships/customer/data/id', 'customer.data.id'],
    ['/data/attributes', 'data.attributes'],
    ['/data', 'data'],
    ['/url', 'url'],
    ['', 'the request body'],
  ])('body %s → %s', (pointer, name) => {
    expect(nameOf(pointer)).toBe(name);
  });

  it.each([
    ['/page/size', 'page[size]'],
    ['/include', 'include'],
    ['/show_positions/from_timestamp', 'show_positions[from_timestamp]'],
  ])('query %s → %s', (path, name) => {
    expect(parameterOf(path)).toBe(name);
  });
});

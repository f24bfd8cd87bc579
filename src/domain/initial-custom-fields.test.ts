import { describe, expect, it } from 'vitest';
import {
  containerNumberKey,
  planContainerValues,
  readStaged,
  repeatedStaged,
  stagedNumberProblem,
  stagedValueProblem,
} from './initial-custom-fields.js';

const BOXES = [
  { id: 'c1', number: 'MSKU1234565' },
  { id: 'c2', number: 'MSKU7654321' },
];

describe('where staged container values go', () => {
  it.each([
    { name: 'no number: every container', staged: [{ api_slug: 'po', value: 'A' }], writes: ['0:c1', '0:c2'], skipped: [] },
    { name: 'null number: every container', staged: [{ api_slug: 'po', value: 'A', number: null }], writes: ['0:c1', '0:c2'], skipped: [] },
    { name: 'blank number: every container', staged: [{ api_slug: 'po', value: 'A', number: ' ' }], writes: ['0:c1', '0:c2'], skipped: [] },
    { name: 'a number: that container', staged: [{ api_slug: 'po', value: 'A', number: 'MSKU7654321' }], writes: ['0:c2'], skipped: [] },
    {
      name: 'a number typed any way',
      staged: [{ api_slug: 'po', value: 'A', number: 'msku 765432-1' }],
      writes: ['0:c2'],
      skipped: [],
    },
    {
      name: 'a number not on the shipment: skipped, the others applied',
      staged: [
        { api_slug: 'po', value: 'A', number: 'TGHU0000000' },
        { api_slug: 'po', value: 'B', number: 'MSKU1234565' },
      ],
      writes: ['1:c1'],
      skipped: ['0:TGHU0000000'],
    },
    {
      name: 'in the order staged: all, then one (the later overwrites)',
      staged: [
        { api_slug: 'po', value: 'all' },
        { api_slug: 'po', value: 'one', number: 'MSKU1234565' },
      ],
      writes: ['0:c1', '0:c2', '1:c1'],
      skipped: [],
    },
  ])('$name', ({ staged, writes, skipped }) => {
    const plan = planContainerValues(staged, BOXES);
    expect(plan.writes.map((w) => `${w.index}:${w.containerId}`)).toEqual(writes);
    expect(plan.skipped.map((s) => `${s.index}:${s.number}`)).toEqual(skipped);
    for (const s of plan.skipped) expect(s.reason).toBe(`Container ${s.number} is not on the shipment`);
  });

  it('a shipment without containers takes no container value, and skips only the named ones', () => {
    const plan = planContainerValues(
      [
        { api_slug: 'po', value: 'A' },
        { api_slug: 'po', value: 'B', number: 'MSKU1234565' },
      ],
      [],
    );
    expect(plan.writes).toEqual([]);
    expect(plan.skipped.map((s) => s.index)).toEqual([1]);
  });
});

describe('staged values', () => {
  it.each([
    [undefined, ''],
    [null, ''],
    ['  ', ''],
    ['msku-123 456 5', 'MSKU1234565'],
  ])('number %j reads as %j', (input, key) => expect(containerNumberKey(input)).toBe(key));

  it('refuses a number no container has, and a missing value', () => {
    expect(stagedNumberProblem('X'.repeat(21))).toMatch(/too long/);
    expect(stagedNumberProblem('MSKU 123456-5')).toBeNull();
    expect(stagedValueProblem({})).toMatch(/can't be blank/);
    expect(stagedValueProblem({ value: null })).toBeNull();
    expect(stagedValueProblem({ value: false })).toBeNull();
  });

  it.each([
    [null, { shipment: [], containers: [] }],
    ['text', { shipment: [], containers: [] }],
    [
      { shipment: 'x', containers: [1, null, { value: 1 }] },
      { shipment: [], containers: [] },
    ],
    [
      { shipment: [{ api_slug: 'a', value: 1 }], containers: [{ api_slug: 'b', value: ['x'], number: 'MSKU1234565' }, { api_slug: 'c' }] },
      {
        shipment: [{ api_slug: 'a', value: 1 }],
        containers: [
          { api_slug: 'b', value: ['x'], number: 'MSKU1234565' },
          { api_slug: 'c', value: null, number: null },
        ],
      },
    ],
  ])('reads what was stored: %j', (stored, expected) => expect(readStaged(stored)).toEqual(expected));
});

describe('repeatedStaged', () => {
  it('names each item repeating an earlier field and target (a number however typed; no number is every container)', () => {
    expect(
      repeatedStaged([
        { api_slug: 'a', value: 1 },
        { api_slug: 'a', value: 2, number: 'MSCU1234565' },
        { api_slug: 'a', value: 3, number: 'mscu 123456-5' },
        { api_slug: 'b', value: 4, number: 'MSCU1234565' },
        { api_slug: 'a', value: 5, number: '' },
        { api_slug: 'a', value: 6, number: null },
      ]),
    ).toEqual([2, 4, 5]);
  });
});

// Following JSON:API relationships into `included` (lib/jsonapi.ts).
import { describe, expect, it } from 'vitest';
import { Included, pageCount, type Resource, refsOf } from './jsonapi';

const shipment: Resource = {
  id: 's1',
  type: 'shipment',
  attributes: {},
  relationships: {
    port_of_lading: { data: { type: 'port', id: 'p1' } },
    destination: { data: null },
    containers: {
      data: [
        { type: 'container', id: 'c2' },
        { type: 'container', id: 'c1' },
        { type: 'container', id: 'missing' },
      ],
    },
  },
};
const included: Resource[] = [
  { id: 'p1', type: 'port', attributes: { name: 'Shanghai' } },
  { id: 'c1', type: 'container', attributes: { number: 'MSKU9070323' } },
  { id: 'c2', type: 'container', attributes: { number: 'TGHU1234567' } },
  // The same id under another type is another resource.
  { id: 'p1', type: 'terminal', attributes: { name: 'Yard' } },
];

describe('Included', () => {
  const inc = new Included(included);

  it.each([
    ['a to-one relationship', 'port_of_lading', 'Shanghai'],
    ['an empty one', 'destination', undefined],
    ['one that is not there', 'pod_terminal', undefined],
    ['a to-many one asked as to-one', 'containers', undefined],
  ])('one: %s', (_name, rel, name) => {
    expect(inc.one<{ name: string }>(shipment, rel)?.attributes.name).toBe(name);
  });

  it('many: in the relationship’s order, those not included left out', () => {
    expect(inc.many<{ number: string }>(shipment, 'containers').map((c) => c.attributes.number)).toEqual(['TGHU1234567', 'MSKU9070323']);
    expect(inc.many(shipment, 'port_of_lading')).toEqual([]);
  });

  it('get: by type and id; nothing for no reference or no included', () => {
    expect(inc.get({ type: 'terminal', id: 'p1' })?.attributes).toEqual({ name: 'Yard' });
    expect(inc.get(null)).toBeUndefined();
    expect(new Included(undefined).get({ type: 'port', id: 'p1' })).toBeUndefined();
  });
});

describe('refsOf', () => {
  it.each([
    ['port_of_lading', [{ type: 'port', id: 'p1' }]],
    ['destination', []],
    ['nothing', []],
    ['containers', shipment.relationships!.containers!.data],
  ])('%s', (rel, refs) => {
    expect(refsOf(shipment, rel)).toEqual(refs);
  });
});

describe('pageCount', () => {
  it.each([
    [undefined, 1],
    [0, 1],
    [25, 1],
    [26, 2],
    [100, 4],
  ])('total %j at 25 a page → %d pages', (total, pages) => {
    expect(pageCount(total === undefined ? undefined : { data: [], meta: { total } }, 25)).toBe(pages);
  });
});

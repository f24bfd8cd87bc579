import { describe, expect, it } from 'vitest';
import type { TidemarkError } from '../domain/errors.js';
import { parseInclude, resolveIncluded, type ResourceKind } from './jsonapi.js';

interface Rec {
  id: string;
  parent?: string;
  tags?: string[];
}

// A small graph: container → shipment → port, container → tag (to-many).
const port: ResourceKind<Rec> = {
  type: 'port',
  render: (r) => ({ id: r.id, type: 'port', attributes: {}, relationships: {} }),
  includable: {},
};
const shipment: ResourceKind<Rec> = {
  type: 'shipment',
  render: (r) => ({ id: r.id, type: 'shipment', attributes: {}, relationships: { port_of_lading: { data: { id: 'p1', type: 'port' } } } }),
  includable: {
    port_of_lading: { targets: () => [port], load: async (rs) => rs.map(() => ({ kind: port, record: { id: 'p1' } })) },
    containers: null,
  },
};
const tag: ResourceKind<Rec> = {
  type: 'tag',
  render: (r) => ({ id: r.id, type: 'tag', attributes: {}, relationships: {} }),
  includable: {},
};
const container: ResourceKind<Rec> = {
  type: 'container',
  render: (r) => ({ id: r.id, type: 'container', attributes: {}, relationships: {} }),
  includable: {
    shipment: { targets: () => [shipment], load: async (rs) => rs.map((r) => ({ kind: shipment, record: { id: r.parent! } })) },
    tags: { targets: () => [tag], load: async (rs) => rs.flatMap((r) => (r.tags ?? []).map((id) => ({ kind: tag, record: { id } }))) },
  },
};

function badInclude(fn: () => unknown): TidemarkError {
  try {
    fn();
  } catch (err) {
    return err as TidemarkError;
  }
  throw new Error('expected an error');
}

describe('include', () => {
  it('parses comma lists and dotted paths into a tree', () => {
    const tree = parseInclude('shipment, shipment.port_of_lading,tags', container);
    expect([...tree.keys()]).toEqual(['shipment', 'tags']);
    expect([...tree.get('shipment')!.keys()]).toEqual(['port_of_lading']);
  });

  it('accepts a declared relationship that holds nothing yet', () => {
    expect(parseInclude('shipment.containers', container).get('shipment')!.has('containers')).toBe(true);
  });

  it.each([
    ['nope', 'nope is not specified as a relationship on container'],
    ['shipment.nope', 'nope is not specified as a relationship on shipment'],
    ['tags.shipment', 'shipment is not specified as a relationship on tag'],
  ])('rejects %s as a 400 on the include parameter', (raw, detail) => {
    const err = badInclude(() => parseInclude(raw, container));
    expect(err.code).toBe('bad_request');
    expect(err.items[0]).toMatchObject({ parameter: 'include', detail });
  });

  it('includes each related resource once, never the primary data, following dotted paths', async () => {
    const records = [
      { id: 'c1', parent: 's1', tags: ['t1', 't2'] },
      { id: 'c2', parent: 's1', tags: ['t2'] },
    ];
    const included = await resolveIncluded(container, records, parseInclude('shipment.port_of_lading,tags', container));
    expect(included.map((r) => `${r.type}:${r.id}`).sort()).toEqual(['port:p1', 'shipment:s1', 'tag:t1', 'tag:t2']);
  });

  it('renders an included resource again after its own includes, in its place, so what they put on it shows', async () => {
    // A shipment whose `notes` include puts the ids on the record it loads them for (as custom_fields does).
    const note: ResourceKind<Rec> = {
      type: 'note',
      render: (r) => ({ id: r.id, type: 'note', attributes: {}, relationships: {} }),
      includable: {},
    };
    const annotated: ResourceKind<Rec> = {
      ...shipment,
      render: (r) => ({
        id: r.id,
        type: 'shipment',
        attributes: {},
        relationships: { ...(r.tags ? { notes: { data: r.tags.map((id) => ({ id, type: 'note' })) } } : {}) },
      }),
      includable: {
        notes: {
          targets: () => [note],
          load: async (rs) => {
            for (const r of rs) r.tags = [`n-${r.id}`];
            return rs.map((r) => ({ kind: note, record: { id: `n-${r.id}` } }));
          },
        },
      },
    };
    const parent: ResourceKind<Rec> = {
      ...container,
      includable: {
        shipment: { targets: () => [annotated], load: async (rs) => rs.map((r) => ({ kind: annotated, record: { id: r.parent! } })) },
      },
    };
    const included = await resolveIncluded(parent, [{ id: 'c1', parent: 's1' }], parseInclude('shipment.notes', parent));
    expect(included.map((r) => `${r.type}:${r.id}`)).toEqual(['shipment:s1', 'note:n-s1']);
    expect(included[0]!.relationships).toEqual({ notes: { data: [{ id: 'n-s1', type: 'note' }] } });
  });

  it('includes nothing without include', async () => {
    expect(await resolveIncluded(container, [{ id: 'c1', parent: 's1' }], parseInclude(undefined, container))).toEqual([]);
  });
});

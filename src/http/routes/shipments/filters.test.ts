import type { FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { referenceItems, shipmentFilter, shipmentsQuery } from './filters.js';

/** The query as the route reads it: parsed by its schema, then the 422 items or the 400 parameters of a refusal. */
function read(query: Record<string, unknown>) {
  const parsed = shipmentsQuery.safeParse(query);
  if (parsed.success) return { filter: shipmentFilter(parsed.data), withPartyRoles: parsed.data.with_party_roles === 'true', invalid: [] };
  // As fastify-type-provider-zod hands zod's issues to Fastify.
  const issues: FastifySchemaValidationError[] = parsed.error.issues.map(({ path, code, message, ...rest }) => ({
    keyword: code,
    instancePath: `/${path.join('/')}`,
    schemaPath: '',
    message,
    params: rest,
  }));
  const invalid = referenceItems(issues);
  return { filter: null, withPartyRoles: false, invalid, refused: invalid ? null : issues.map((i) => i.instancePath) };
}

describe('the shipments list query', () => {
  it.each([
    ['nothing', {}, {}],
    ['q, bare', { q: ' MAEU1 ' }, { q: 'MAEU1' }],
    ['q as filter[q]', { filter: { q: 'PO-1' } }, { q: 'PO-1' }],
    ['filter[name] wins over the bare name', { number: 'A', filter: { number: 'B' } }, { number: 'B' }],
    ['tracking_stopped true', { filter: { tracking_stopped: 'true' } }, { trackingStopped: true }],
    ['tracking_stopped false, bare', { tracking_stopped: 'false' }, { trackingStopped: false }],
    [
      'arrival window',
      { arrival_from: '2026-03-01', filter: { arrival_to: '2026-03-31' } },
      { arrivalFrom: '2026-03-01', arrivalTo: '2026-03-31' },
    ],
    ['ports as x[]=', { port_of_lading: ['cnsha', 'CNNGB'] }, { portsOfLading: ['CNSHA', 'CNNGB'] }],
    ['ports as a comma list, repeats once', { port_of_discharge: 'USLAX,USLGB,USLAX' }, { portsOfDischarge: ['USLAX', 'USLGB'] }],
    ['ports under filter[]', { filter: { port_of_discharge: ['USNYC'] } }, { portsOfDischarge: ['USNYC'] }],
    [
      'customer id and name',
      { filter: { customer_id: '0190A3C2-5B1E-7000-8000-000000000001', customer_name: 'acme' } },
      { customerId: '0190a3c2-5b1e-7000-8000-000000000001', customerName: 'acme' },
    ],
    ['blank values are no filter', { q: '', number: '  ', arrival_from: '' }, {}],
    ['carriers, any case, as a comma list', { carrier: 'maeu,MSCU' }, { carriers: ['MAEU', 'MSCU'] }],
    ['container statuses as x[]=', { filter: { status: ['available', 'ON_RAIL'] } }, { containerStatuses: ['available', 'on_rail'] }],
    ['a filter the list does not take is ignored', { filter: { color: 'blue' } }, {}],
  ])('%s', (_name, query, filter) => {
    const parsed = read(query);
    expect(parsed.invalid).toEqual([]);
    expect(parsed.filter).toEqual(filter);
  });

  it.each([
    ['a date in another format', { arrival_from: '03/01/2026' }, 'Invalid arrival_date_from', 'arrival_from'],
    ['a date that does not exist', { filter: { arrival_to: '2026-02-30' } }, 'Invalid arrival_date_to', 'filter[arrival_to]'],
    ['an end before the start', { arrival_from: '2026-03-02', arrival_to: '2026-03-01' }, 'Invalid arrival_date_to', 'arrival_to'],
    ['a port that is no LOCODE', { port_of_lading: 'Shanghai' }, 'Invalid port_of_lading', 'port_of_lading'],
    ['one bad port among good ones', { port_of_discharge: ['USLAX', 'LA'] }, 'Invalid port_of_discharge', 'port_of_discharge'],
    ['a nested object as a port list', { port_of_discharge: { a: 'USLAX' } }, 'Invalid port_of_discharge', 'port_of_discharge'],
    [
      'tracking_stopped that is no boolean',
      { filter: { tracking_stopped: 'yes' } },
      'Invalid tracking_stopped',
      'filter[tracking_stopped]',
    ],
    ['a customer id that is no UUID', { filter: { customer_id: '42' } }, 'Invalid customer_id', 'filter[customer_id]'],
    ['a carrier that is no SCAC', { carrier: 'Maersk Line' }, 'Invalid carrier', 'carrier'],
    ['a status no container has', { status: 'lost' }, 'Invalid status', 'status'],
  ])('%s → 422 item', (_name, query, title, parameter) => {
    const { invalid } = read(query);
    expect(invalid).toEqual([expect.objectContaining({ title, parameter })]);
    expect(invalid![0]!.detail).toEqual(expect.any(String));
  });

  it('collects every invalid filter at once, with the reference detail for dates', () => {
    const { invalid } = read({ arrival_from: 'x', arrival_to: 'y', port_of_lading: '1' });
    expect(invalid?.map((i) => i.title)).toEqual(['Invalid arrival_date_from', 'Invalid arrival_date_to', 'Invalid port_of_lading']);
    expect(invalid![0]!.detail).toBe("filter['arrival_from'] must be in the format 'YYYY-MM-DD' and a valid date");
    expect(read({ filter: { tracking_stopped: 'yes' } }).invalid![0]!.detail).toBe('filter[tracking_stopped] must be true or false');
  });

  it.each([
    ['q given twice', { q: ['a', 'b'] }, '/q'],
    ['number as an object', { filter: { number: { x: '1' } } }, '/filter/number'],
    ['filter that is not a map', { filter: 'x' }, '/filter'],
    ['with_party_roles that is no boolean', { with_party_roles: 'yes' }, '/with_party_roles'],
  ])('%s → the schema’s 400 naming the parameter', (_name, query, at) => {
    expect(read(query).refused).toContain(at);
  });

  it('reads with_party_roles', () => {
    expect(read({ with_party_roles: 'true' }).withPartyRoles).toBe(true);
    expect(read({ with_party_roles: 'false' }).withPartyRoles).toBe(false);
    expect(read({}).withPartyRoles).toBe(false);
  });
});

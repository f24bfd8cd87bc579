// The shipments list's query filters as the reference API takes them: each name bare or as `filter[name]`,
// port lists as `x[]=` or comma lists. Invalid values of the shipment filters are collected into one 422 with
// the reference's titles; a parameter that is not even a value (an object where a string belongs) is a 400.
import { badRequest, type ErrorItem } from '../../../domain/errors.js';
import { isCalendarDate } from '../../../lib/dates.js';
import { isUuid } from '../../../lib/ids.js';
import type { ShipmentFilter } from '../../../services/shipments.js';
import { filtersOf, singleValue } from '../../query.js';
import { CONTAINER_STATUSES } from '../../../services/containers.js';

export type { ShipmentFilter };

export interface ParsedShipmentQuery {
  filter: ShipmentFilter;
  withPartyRoles: boolean;
  /** The 422 items (title and detail as the reference words them, with the parameter); empty when valid. */
  invalid: ErrorItem[];
}

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;

export function parseShipmentQuery(query: Record<string, unknown>): ParsedShipmentQuery {
  const filters = filtersOf(query);

  /** The value of `filter[name]`, else of the bare `name`, with the parameter it came from. */
  const raw = (name: string): { value: unknown; parameter: string } =>
    filters[name] !== undefined ? { value: filters[name], parameter: `filter[${name}]` } : { value: query[name], parameter: name };
  const text = (name: string): { value: string | undefined; parameter: string } => {
    const { value, parameter } = raw(name);
    return { value: singleValue(value, parameter), parameter };
  };

  const filter: ShipmentFilter = {};
  const invalid: ErrorItem[] = [];

  const q = text('q').value;
  if (q) filter.q = q;
  const number = text('number').value;
  if (number) filter.number = number;
  const customerName = text('customer_name').value;
  if (customerName) filter.customerName = customerName;

  const stopped = text('tracking_stopped');
  if (stopped.value !== undefined) {
    if (stopped.value === 'true' || stopped.value === 'false') filter.trackingStopped = stopped.value === 'true';
    else
      invalid.push({
        title: 'Invalid tracking_stopped',
        detail: `${stopped.parameter} must be true or false`,
        parameter: stopped.parameter,
      });
  }

  const customer = text('customer_id');
  if (customer.value !== undefined) {
    if (isUuid(customer.value)) filter.customerId = customer.value.toLowerCase();
    else
      invalid.push({
        title: 'Invalid customer_id',
        detail: `${customer.parameter} must be a party id (UUID)`,
        parameter: customer.parameter,
      });
  }

  for (const [name, title, key] of [
    ['arrival_from', 'Invalid arrival_date_from', 'arrivalFrom'],
    ['arrival_to', 'Invalid arrival_date_to', 'arrivalTo'],
  ] as const) {
    const { value, parameter } = text(name);
    if (value === undefined) continue;
    if (isCalendarDate(value)) filter[key] = value;
    else invalid.push({ title, detail: `filter['${name}'] must be in the format 'YYYY-MM-DD' and a valid date`, parameter });
  }
  if (filter.arrivalFrom && filter.arrivalTo && filter.arrivalTo < filter.arrivalFrom) {
    invalid.push({
      title: 'Invalid arrival_date_to',
      detail: "filter['arrival_to'] must not be before filter['arrival_from']",
      parameter: raw('arrival_to').parameter,
    });
    delete filter.arrivalTo;
  }

  for (const [name, key] of [
    ['port_of_lading', 'portsOfLading'],
    ['port_of_discharge', 'portsOfDischarge'],
  ] as const) {
    const { value, parameter } = raw(name);
    if (value === undefined || value === '') continue;
    const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
    const codes = items?.map((v) => (typeof v === 'string' ? v.trim().toUpperCase() : null)).filter((v) => v !== '');
    if (!codes || codes.length === 0 || codes.some((c) => c === null || !LOCODE.test(c))) {
      invalid.push({
        title: `Invalid ${name}`,
        detail: `${name} must be an array of 5-character UN/LOCODEs (${name}[]=USLAX or ${name}=USLAX,USLGB)`,
        parameter,
      });
      continue;
    }
    filter[key] = [...new Set(codes as string[])];
  }

  // Beyond the reference API (the web app's filters): the carrier, and the status of any of its containers.
  for (const [name, key, valid, what] of [
    ['carrier', 'carriers', (v: string) => /^[A-Z]{2,4}$/.test(v), 'SCACs'],
    [
      'status',
      'containerStatuses',
      (v: string) => (CONTAINER_STATUSES as readonly string[]).includes(v.toLowerCase()),
      `container statuses (${CONTAINER_STATUSES.join(', ')})`,
    ],
  ] as const) {
    const { value, parameter } = raw(name);
    if (value === undefined || value === '') continue;
    const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
    const list = items?.map((v) => (typeof v === 'string' ? v.trim() : '')).filter(Boolean);
    if (!list || list.length === 0 || list.some((v) => !valid(v.toUpperCase()) && !valid(v))) {
      invalid.push({ title: `Invalid ${name}`, detail: `${name} must be a list of ${what}`, parameter });
      continue;
    }
    filter[key] = [...new Set(list.map((v) => (name === 'carrier' ? v.toUpperCase() : v.toLowerCase())))];
  }

  const roles = query.with_party_roles;
  if (roles !== undefined && roles !== 'true' && roles !== 'false' && roles !== '')
    throw badRequest('with_party_roles must be true or false', { parameter: 'with_party_roles' });

  return { filter, withPartyRoles: roles === 'true', invalid };
}

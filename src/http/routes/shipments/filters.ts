// The shipments list's query as the reference API takes it: each filter bare or as `filter[name]` (the filter[…]
// form wins when both are given), port lists as `x[]=` or comma lists. Declared here as the route's querystring
// schema. A value the reference checks (a date, a port list, a boolean …) that is wrong is an issue carrying the
// reference's title; the route answers those with one 422 in the reference's shape (`referenceAnswer`). A parameter
// that is not even a value (an object where a string belongs, a name given twice) is the schema's usual 400.
import type { FastifySchemaValidationError } from 'fastify';
import { z } from 'zod';
import type { ErrorItem } from '../../../domain/errors.js';
import { isCalendarDate } from '../../../lib/dates.js';
import { isUuid } from '../../../lib/ids.js';
import type { ShipmentFilter } from '../../../services/shipments.js';
import { CONTAINER_STATUSES } from '../../../services/containers.js';
import { customFieldsFilter } from '../../custom-field-filter.js';
import { oneValue } from '../../query.js';
import { listQuery } from '../../schemas.js';
import { parameterOf, sentence } from '../../validation-messages.js';

export type { ShipmentFilter };

/** What an issue the reference words itself carries: its title, and its whole detail where the reference fixes it. */
interface ReferenceWording {
  title: string;
  detail?: string;
}

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;

/** A single value the reference checks: `read` gives the filter's value, or undefined for a wrong one (422). */
function checked<T>(read: (value: string) => T | undefined, message: string, wording: ReferenceWording) {
  return oneValue()
    .transform((v, ctx): T | undefined => {
      if (v === '') return undefined;
      const value = read(v);
      if (value !== undefined) return value;
      ctx.addIssue({ code: 'custom', message, input: v, params: wording });
      return z.NEVER;
    })
    .optional();
}

/**
 * A list the reference checks (`x[]=a&x[]=b` or `x=a,b`): each entry trimmed and read by `read` (undefined for a
 * wrong one), repeats once; anything else, a nested object too, the list's 422.
 */
function list(read: (entry: string) => string | undefined, wording: Required<ReferenceWording>, description: string) {
  return z
    .unknown()
    .transform((value, ctx): string[] | undefined => {
      if (value === undefined || value === '') return undefined;
      const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
      const entries = items?.map((v) => (typeof v === 'string' ? v.trim() : null)).filter((v) => v !== '');
      const read_ = entries?.map((v) => (v === null ? undefined : read(v)));
      if (!read_ || read_.length === 0 || read_.some((v) => v === undefined)) {
        ctx.addIssue({ code: 'custom', message: wording.detail, input: value, params: wording });
        return z.NEVER;
      }
      return [...new Set(read_ as string[])];
    })
    .optional()
    .meta({ description, anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] });
}

const dateWording = (name: 'arrival_from' | 'arrival_to'): ReferenceWording => ({
  title: name === 'arrival_from' ? 'Invalid arrival_date_from' : 'Invalid arrival_date_to',
  detail: `filter['${name}'] must be in the format 'YYYY-MM-DD' and a valid date`,
});

const portWording = (name: string) => ({
  title: `Invalid ${name}`,
  detail: `${name} must be an array of 5-character UN/LOCODEs (${name}[]=USLAX or ${name}=USLAX,USLGB)`,
});

const statuses: readonly string[] = CONTAINER_STATUSES;

/** The filters, each taken bare or under `filter[…]`. */
const FILTERS = {
  q: oneValue().optional().describe('Master bill of lading, booking, request, reference or container number, any part of it'),
  number: oneValue().optional().describe('The bill of lading or booking number it was tracked by'),
  customer_name: oneValue().optional().describe("Part of its customer's name, any case"),
  tracking_stopped: checked((v) => (v === 'true' ? true : v === 'false' ? false : undefined), 'must be true or false', {
    title: 'Invalid tracking_stopped',
  }).describe('true or false'),
  customer_id: checked((v) => (isUuid(v) ? v.toLowerCase() : undefined), 'must be a party id (UUID)', {
    title: 'Invalid customer_id',
  }).describe('The id of its customer party'),
  arrival_from: checked(
    (v) => (isCalendarDate(v) ? v : undefined),
    dateWording('arrival_from').detail!,
    dateWording('arrival_from'),
  ).describe('YYYY-MM-DD, inclusive: the POD local date of the actual, else estimated, arrival'),
  arrival_to: checked((v) => (isCalendarDate(v) ? v : undefined), dateWording('arrival_to').detail!, dateWording('arrival_to')).describe(
    'YYYY-MM-DD, inclusive',
  ),
  port_of_lading: list((v) => (LOCODE.test(v.toUpperCase()) ? v.toUpperCase() : undefined), portWording('port_of_lading'), 'UN/LOCODEs'),
  port_of_discharge: list(
    (v) => (LOCODE.test(v.toUpperCase()) ? v.toUpperCase() : undefined),
    portWording('port_of_discharge'),
    'UN/LOCODEs',
  ),
  // Beyond the reference API (the web app's filters): the carrier, and the status of any of its containers.
  carrier: list(
    (v) => (/^[A-Z]{2,4}$/.test(v.toUpperCase()) ? v.toUpperCase() : undefined),
    { title: 'Invalid carrier', detail: 'carrier must be a list of SCACs' },
    'SCACs',
  ),
  status: list(
    (v) => (statuses.includes(v.toLowerCase()) ? v.toLowerCase() : undefined),
    { title: 'Invalid status', detail: `status must be a list of container statuses (${CONTAINER_STATUSES.join(', ')})` },
    'Statuses any of its containers is in',
  ),
};

/** The shipments list's querystring: paging, include, each filter bare and under `filter[…]`, `with_party_roles`. */
export const shipmentsQuery = listQuery
  .extend({
    ...FILTERS,
    filter: z
      .object({ ...FILTERS, custom_fields: customFieldsFilter }, { error: 'must be given as filter[name]=value' })
      .catchall(z.unknown())
      .optional()
      .describe('The same filters as filter[name]=value'),
    with_party_roles: z
      .enum(['true', 'false', ''], { error: 'must be true or false' })
      .optional()
      .describe('true adds the party_roles relationship'),
  })
  .check((ctx) => {
    // An end before the start: both are dates by now, else their own issues are there already.
    const { filter } = ctx.value;
    const from = filter?.arrival_from ?? ctx.value.arrival_from;
    const to = filter?.arrival_to ?? ctx.value.arrival_to;
    if (typeof from !== 'string' || typeof to !== 'string' || !isCalendarDate(from) || !isCalendarDate(to) || to >= from) return;
    const wording: ReferenceWording = {
      title: 'Invalid arrival_date_to',
      detail: "filter['arrival_to'] must not be before filter['arrival_from']",
    };
    const path = filter?.arrival_to !== undefined ? ['filter', 'arrival_to'] : ['arrival_to'];
    ctx.issues.push({ code: 'custom', message: wording.detail!, path, input: to, params: wording });
  });

type ShipmentsQuery = z.output<typeof shipmentsQuery>;

/**
 * The filter the query asks for (the filter[…] form of each name, else the bare one). `filter[custom_fields]` is
 * not here: its slugs are the account's, read by the route (http/custom-field-filter.ts).
 */
export function shipmentFilter(query: ShipmentsQuery): ShipmentFilter {
  const f = query.filter ?? {};
  const pick = <K extends keyof typeof FILTERS>(name: K) => f[name] ?? query[name];
  const filter: ShipmentFilter = {};
  const q = pick('q');
  if (q) filter.q = q;
  const number = pick('number');
  if (number) filter.number = number;
  const customerName = pick('customer_name');
  if (customerName) filter.customerName = customerName;
  const stopped = pick('tracking_stopped');
  if (stopped !== undefined) filter.trackingStopped = stopped;
  const customerId = pick('customer_id');
  if (customerId) filter.customerId = customerId;
  const arrivalFrom = pick('arrival_from');
  if (arrivalFrom) filter.arrivalFrom = arrivalFrom;
  const arrivalTo = pick('arrival_to');
  if (arrivalTo) filter.arrivalTo = arrivalTo;
  const portsOfLading = pick('port_of_lading');
  if (portsOfLading) filter.portsOfLading = portsOfLading;
  const portsOfDischarge = pick('port_of_discharge');
  if (portsOfDischarge) filter.portsOfDischarge = portsOfDischarge;
  const carriers = pick('carrier');
  if (carriers) filter.carriers = carriers;
  const containerStatuses = pick('status');
  if (containerStatuses) filter.containerStatuses = containerStatuses;
  return filter;
}

/**
 * The reference's 422 items for the issues of a refused query, in its titles and words, with the parameter as sent;
 * null when any issue is not one of those (that query gets the schema's 400).
 */
export function referenceItems(issues: FastifySchemaValidationError[]): ErrorItem[] | null {
  const items: ErrorItem[] = [];
  for (const issue of issues) {
    const wording = (issue.params as { params?: ReferenceWording } | undefined)?.params;
    if (!wording?.title) return null;
    const parameter = parameterOf(issue.instancePath);
    const detail = wording.detail ?? sentence(parameter, { code: issue.keyword, message: issue.message }).detail;
    items.push({ title: wording.title, detail, parameter });
  }
  return items;
}

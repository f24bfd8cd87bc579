// What an account keeps beside its shipments: tracking requests (api-wire-notes §4.3), parties and their roles,
// search results (§4.13) and API keys.
import { z } from 'zod';
import { PLANS } from '../../domain/account.js';
import { API_ACCESS_STATES } from '../../domain/api-trial.js';
import {
  at,
  ext,
  FAILED_REASONS,
  linkedResource,
  REQUEST_TYPES,
  resource,
  STOPPED_REASONS,
  strings,
  text,
  toOne,
  TRACKING_REQUEST_STATUSES,
} from './common.js';

export const trackingRequestAttributes = z.strictObject({
  request_number: z.string(),
  request_type: z.enum(REQUEST_TYPES),
  scac: z.string(),
  ref_numbers: strings,
  shipment_tags: strings,
  status: z.enum(TRACKING_REQUEST_STATUSES),
  failed_reason: z
    .enum(FAILED_REASONS)
    .nullable()
    .meta({ description: '`plan_limit_reached` is a Tidemark extension (docs/extensions.md).' }),
  is_retrying: z.boolean(),
  retry_count: z.number().int().nullable(),
  created_at: at(),
  updated_at: at(),
});

export const trackingRequestResource = linkedResource('tracking_request', {
  id: 'TrackingRequest',
  description: 'A request to track a number (api-wire-notes §4.3); `tracked_object` is the shipment once created.',
  attributes: trackingRequestAttributes,
  relationships: z.strictObject({ tracked_object: toOne('shipment'), customer: toOne('party'), user: toOne('user') }),
});

export const partyAttributes = z.strictObject({ company_name: z.string(), created_at: at(), updated_at: at() });

export const partyResource = linkedResource('party', {
  id: 'Party',
  description: 'A party (customer) of the account.',
  attributes: partyAttributes,
  relationships: z.strictObject({}),
});

export const partyRoleAttributes = z.strictObject({
  role: z.string().meta({ description: 'shipper, consignee, customer, notify party, or a name of your own' }),
  created_at: at(),
  updated_at: at(),
});

export const partyRoleResource = linkedResource('party_role', {
  id: 'PartyRole',
  description: ext("a party's role on a shipment or a container."),
  attributes: partyRoleAttributes,
  relationships: z.strictObject({ party: toOne('party'), shipment: toOne('shipment'), container: toOne('container') }),
});

export const searchResultAttributes = z.strictObject({
  entity_type: z.enum(['shipment', 'cargo', 'tracking_request']).meta({ description: '`cargo` is a container.' }),
  number: z.string(),
  shipment_id: text(),
  scac: text(),
  port_of_lading_name: text(),
  port_of_discharge_name: text(),
  containers_count: z.number().int().nullable(),
  tracking_stopped: z.boolean(),
  tracking_stopped_reason: z.enum(STOPPED_REASONS).nullable(),
  status: text("The shipment's (`created`, `tracking_stopped`), container's `current_status` or request's status."),
  failed_reason: z.enum(FAILED_REASONS).nullable(),
  ref_numbers: strings,
  created_at: at(),
  updated_at: at(),
});

export const searchResultResource = resource('search_result', {
  id: 'SearchResult',
  description: 'A shipment, container or tracking request found by `GET /v2/search` (api-wire-notes §4.13).',
  attributes: searchResultAttributes,
  relationships: z.strictObject({ shipment: toOne('shipment') }),
});

export const apiKeyAttributes = z.strictObject({
  name: text(),
  masked: z.string(),
  created_at: at(),
  last_used_at: at(),
  key: z.string().optional().meta({ description: 'The full key: in the response that creates it, and never again.' }),
});

export const apiKeyResource = linkedResource('api_key', {
  id: 'ApiKey',
  description: ext("one of the account's API keys, masked."),
  attributes: apiKeyAttributes,
  relationships: z.strictObject({}),
});

export const accountAttributes = z.strictObject({
  company_name: z.string(),
  name: z.string().meta({ description: ext('the name the operator knows the account by.') }),
  plan: z.enum(PLANS).meta({ description: ext('`free` (at most 10 active containers) or `unlimited`.') }),
  trial_ends_at: at(ext("when the account's API trial ends (or ended); null when it never had one.")),
  api_access: z.enum(API_ACCESS_STATES).meta({
    description: ext(
      'whether API keys and MCP may read tracking data: `enabled` (the plan, or the operator, allows it), `trial` (until `trial_ends_at`), `trial_required` (they are refused with 403 `api_trial_required`).',
    ),
  }),
  api_access_detail: text(ext('what to do, while `api_access` is `trial_required`.')),
});

export const accountResource = linkedResource('account', {
  id: 'Account',
  description: "The caller's account (api-wire-notes §4.12): `company_name`, and Tidemark's plan and API trial.",
  attributes: accountAttributes,
  relationships: z.strictObject({}),
});

// Custom-field definitions, options and values, from custom-fields-documents-wire.md §2 and the contract every
// engineer builds against (the task's "custom-field contract"): entity types answered as Shipment | Container |
// TrackingRequest, entity relationship types lowercase, api_slug `^[a-z][a-z0-9_]{0,62}$`, template_id null.
import { z } from 'zod';
import { nullableString, resource, timestamp, toMany, toOneRequired, uuid } from './common.js';

export const DATA_TYPES = ['short_text', 'number', 'date', 'datetime', 'boolean', 'enum', 'enum_multi', 'reference'] as const;
export const ENTITY_TYPES = ['Shipment', 'Container', 'TrackingRequest'] as const;
const ENTITY_REF_TYPES = ['shipment', 'container', 'tracking_request'] as const;

export const apiSlug = z.string().regex(/^[a-z][a-z0-9_]{0,62}$/, 'an api_slug');

/** `custom_field_value` (§2.1): null, or exactly one of string | number | boolean | array of strings | `{type, id}`. */
export const customFieldValue = z.union([
  z.null(),
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.string()),
  z.looseObject({ type: z.enum(ENTITY_REF_TYPES), id: uuid }),
]);

export const customFieldDefinition = resource(
  'custom_field_definition',
  {
    entity_type: z.enum(ENTITY_TYPES),
    api_slug: apiSlug,
    display_name: z.string(),
    description: nullableString,
    data_type: z.enum(DATA_TYPES),
    reference_type: z.enum(ENTITY_REF_TYPES).nullable(),
    validation: z.record(z.string(), z.unknown()).nullable(),
    default_format: nullableString,
    default_value: customFieldValue,
    // Live only at the reference; always null at Tidemark (no global templates).
    template_id: z.null(),
    created_at: timestamp,
    updated_at: timestamp,
  },
  {
    account: toOneRequired('account'),
    options: toMany('custom_field_option'),
  },
);

export const customFieldOption = resource(
  'custom_field_option',
  { label: z.string(), value: z.string(), position: z.number().int().nullable() },
  {},
);

export const customField = resource(
  'custom_field',
  { api_slug: apiSlug, value: customFieldValue, display_value: nullableString },
  { entity: toOneRequired(...ENTITY_REF_TYPES), definition: toOneRequired('custom_field_definition') },
);

// Custom fields (custom-fields-documents-wire §2, docs/custom-fields.md): definitions, their options, and values.
import { z } from 'zod';
import { DATA_TYPES, ENTITY_REF_TYPES, ENTITY_TYPES } from '../../domain/custom-fields.js';
import { instant, linkedResource, refTo, text, toMany } from './common.js';

/** `value`, `default_value`: which of these a field takes depends on its data type (docs/custom-fields.md). */
export const customFieldValue = z
  .union([
    z.string(),
    z.number(),
    z.boolean(),
    z.array(z.string()),
    z.strictObject({ type: z.enum(ENTITY_REF_TYPES), id: z.string() }).meta({ description: 'A reference: one record of the account' }),
  ])
  .nullable()
  .meta({
    id: 'CustomFieldValue',
    description:
      'short_text: string; number: number; date: `YYYY-MM-DD`; datetime: ISO 8601 UTC seconds; boolean; enum: an option value; ' +
      'enum_multi: a list of option values; reference: `{type, id}`.',
  });

export const customFieldDefinitionResource = linkedResource('custom_field_definition', {
  id: 'CustomFieldDefinition',
  description: 'What a custom field is, for one entity type of the account.',
  attributes: z.strictObject({
    entity_type: z.enum(ENTITY_TYPES),
    api_slug: z.string(),
    display_name: z.string(),
    description: text(),
    data_type: z.enum(DATA_TYPES),
    reference_type: z.enum(ENTITY_REF_TYPES).nullable().meta({ description: 'The record type a reference field names; null otherwise.' }),
    validation: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'Honoured keys: `required`, `pattern` (short_text), `max_length` (short_text), `min`, `max` (number).' }),
    default_format: text('strftime syntax for date and datetime (`%d %b %Y`), printf-like for number (`%,.2f`).'),
    default_value: customFieldValue,
    template_id: z.null().meta({ description: 'Always null: there are no global templates.' }),
    created_at: instant,
    updated_at: instant,
  }),
  relationships: z.strictObject({
    account: z.strictObject({ data: refTo('account') }),
    options: toMany('custom_field_option').meta({ description: 'Ordered by position, then value; empty unless enum or enum_multi.' }),
  }),
});

export const customFieldOptionResource = linkedResource('custom_field_option', {
  id: 'CustomFieldOption',
  description: 'A value an enum or enum_multi field allows.',
  attributes: z.strictObject({
    label: z.string(),
    value: z.string(),
    position: z.number().int().nullable(),
  }),
  relationships: z.strictObject({}),
});

export const customFieldResource = linkedResource('custom_field', {
  id: 'CustomField',
  description: 'One value of one custom-field definition on a shipment, container or tracking request.',
  attributes: z.strictObject({
    api_slug: z.string(),
    value: customFieldValue,
    display_value: text('The value as people read it: formatted with `default_format`, option labels, `Yes`/`No`.'),
  }),
  relationships: z.strictObject({
    entity: z.strictObject({ data: refTo(...ENTITY_REF_TYPES) }),
    definition: z.strictObject({ data: refTo('custom_field_definition') }),
  }),
});

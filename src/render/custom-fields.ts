// Custom fields as JSON:API resources (docs/custom-fields.md): `custom_field_definition` (include=options),
// `custom_field_option`, and `custom_field` (include=definition). Includes load through CustomFieldLoaders.
import type { CustomField, CustomFieldDefinition, CustomFieldOption } from '../domain/custom-fields.js';
import { isoSeconds } from '../lib/dates.js';
import type { ResourceKind } from './jsonapi.js';
import type { Resource } from './schemas.js';

/** What the custom-field kinds load their includes from (implemented by services/custom-fields.ts). */
export interface CustomFieldLoaders {
  definitionsByIds(accountId: string, ids: string[]): Promise<CustomFieldDefinition[]>;
  optionsOf(accountId: string, definitionIds: string[]): Promise<CustomFieldOption[]>;
}

export const customFieldOptionKind: ResourceKind<CustomFieldOption, Resource<'custom_field_option'>> = {
  type: 'custom_field_option',
  render: (o) => ({
    id: o.id,
    type: 'custom_field_option',
    attributes: { label: o.label, value: o.value, position: o.position },
    relationships: {},
    links: { self: `/v2/custom_field_definitions/${o.definitionId}/options/${o.id}` },
  }),
  includable: {},
};

export const customFieldDefinitionKind = (
  loaders: CustomFieldLoaders,
): ResourceKind<CustomFieldDefinition, Resource<'custom_field_definition'>> => ({
  type: 'custom_field_definition',
  render: (d) => ({
    id: d.id,
    type: 'custom_field_definition',
    attributes: {
      entity_type: d.entityType,
      api_slug: d.apiSlug,
      display_name: d.displayName,
      description: d.description,
      data_type: d.dataType,
      reference_type: d.referenceType,
      validation: d.validation ? { ...d.validation } : null,
      default_format: d.defaultFormat,
      default_value: d.defaultValue,
      template_id: null,
      created_at: isoSeconds(d.createdAt),
      updated_at: isoSeconds(d.updatedAt),
    },
    relationships: {
      account: { data: { type: 'account', id: d.accountId } },
      options: { data: d.optionIds.map((id) => ({ type: 'custom_field_option', id })) },
    },
    links: { self: `/v2/custom_field_definitions/${d.id}` },
  }),
  includable: {
    options: {
      targets: () => [customFieldOptionKind],
      async load(records) {
        const accountId = records[0]?.accountId;
        if (!accountId) return [];
        const ids = records.filter((d) => d.optionIds.length).map((d) => d.id);
        return (await loaders.optionsOf(accountId, ids)).map((record) => ({ kind: customFieldOptionKind, record }));
      },
    },
  },
});

export const customFieldKind = (loaders: CustomFieldLoaders): ResourceKind<CustomField, Resource<'custom_field'>> => {
  const definitions = customFieldDefinitionKind(loaders);
  return {
    type: 'custom_field',
    render: (f) => ({
      id: f.id,
      type: 'custom_field',
      attributes: { api_slug: f.apiSlug, value: f.value, display_value: f.displayValue },
      relationships: {
        entity: { data: { type: f.entityType, id: f.entityId } },
        definition: { data: { type: 'custom_field_definition', id: f.definitionId } },
      },
      links: { self: `/v2/custom_fields/${f.id}` },
    }),
    includable: {
      definition: {
        targets: () => [definitions],
        async load(records) {
          const accountId = records[0]?.accountId;
          if (!accountId) return [];
          const ids = [...new Set(records.map((f) => f.definitionId))];
          return (await loaders.definitionsByIds(accountId, ids)).map((record) => ({ kind: definitions, record }));
        },
      },
    },
  };
};

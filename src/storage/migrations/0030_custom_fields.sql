-- Custom fields (docs/custom-fields.md, decision 0016): an account's own fields on its shipments, containers and
-- tracking requests. A definition says what a field is for one entity type; an enum or enum_multi definition has
-- options (the values it allows); a custom field is one value of one definition on one record. Every row carries
-- its account, and every query names it.
CREATE TABLE custom_field_definitions (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  entity_type text NOT NULL CHECK (entity_type IN ('Shipment', 'Container', 'TrackingRequest')),
  -- Fixed after creation, like entity_type, data_type and reference_type.
  api_slug text NOT NULL CHECK (api_slug ~ '^[a-z][a-z0-9_]{0,62}$'),
  display_name text NOT NULL,
  description text,
  data_type text NOT NULL
    CHECK (data_type IN ('short_text', 'number', 'date', 'datetime', 'boolean', 'enum', 'enum_multi', 'reference')),
  reference_type text CHECK (reference_type IN ('shipment', 'container', 'tracking_request')),
  -- The honoured keys (required, pattern, max_length, min, max), checked by src/domain/custom-fields.ts.
  validation jsonb,
  default_format text,
  -- A value as the field's data type takes it; SQL NULL when there is none.
  default_value jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((data_type = 'reference') = (reference_type IS NOT NULL))
);
-- A slug names one definition per entity type of an account (the per-entity routes find the definition by it).
CREATE UNIQUE INDEX custom_field_definitions_slug_key ON custom_field_definitions (account_id, entity_type, api_slug);
CREATE INDEX custom_field_definitions_account_created_idx ON custom_field_definitions (account_id, created_at, id);
-- filter[display_name] is a case-insensitive prefix match.
CREATE INDEX custom_field_definitions_display_name_idx ON custom_field_definitions (account_id, lower(display_name) text_pattern_ops);

CREATE TABLE custom_field_options (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  definition_id uuid NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
  label text NOT NULL,
  -- Not updatable: values already stored name it.
  value text NOT NULL,
  position integer,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX custom_field_options_value_key ON custom_field_options (definition_id, value);
-- Lists and the definition's `options` relationship: by position (unset last), then value.
CREATE INDEX custom_field_options_order_idx ON custom_field_options (definition_id, position, value);

CREATE TABLE custom_fields (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- Deleting a definition deletes its values; deleting an option leaves them (they then show the raw value).
  definition_id uuid NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
  entity_type text NOT NULL CHECK (entity_type IN ('shipment', 'container', 'tracking_request')),
  -- The record the value is on: one of three, so that the record's deletion takes its values with it.
  shipment_id uuid REFERENCES shipments (id) ON DELETE CASCADE,
  container_id uuid REFERENCES containers (id) ON DELETE CASCADE,
  tracking_request_id uuid REFERENCES tracking_requests (id) ON DELETE CASCADE,
  entity_id uuid NOT NULL GENERATED ALWAYS AS (COALESCE(shipment_id, container_id, tracking_request_id)) STORED,
  -- The value as the API answers it (SQL NULL for null).
  value jsonb,
  -- The comparable form(s) of the value for filter[custom_fields][<slug>] (one for scalars, the option values of an
  -- enum_multi, none for null): src/domain/custom-fields.ts `comparableKeys`.
  match_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (num_nonnulls(shipment_id, container_id, tracking_request_id) = 1),
  CHECK ((entity_type = 'shipment') = (shipment_id IS NOT NULL)),
  CHECK ((entity_type = 'container') = (container_id IS NOT NULL)),
  CHECK ((entity_type = 'tracking_request') = (tracking_request_id IS NOT NULL))
);
-- One value per definition and record: setting it again overwrites (the upsert of POST).
CREATE UNIQUE INDEX custom_fields_definition_entity_key ON custom_fields (definition_id, entity_id);
-- A record's values (per-entity lists, include=custom_fields, filter[entity_id]).
CREATE INDEX custom_fields_account_entity_idx ON custom_fields (account_id, entity_id);
CREATE INDEX custom_fields_account_created_idx ON custom_fields (account_id, created_at, id);
-- The cascades from shipments, containers and tracking requests.
CREATE INDEX custom_fields_shipment_idx ON custom_fields (shipment_id) WHERE shipment_id IS NOT NULL;
CREATE INDEX custom_fields_container_idx ON custom_fields (container_id) WHERE container_id IS NOT NULL;
CREATE INDEX custom_fields_tracking_request_idx ON custom_fields (tracking_request_id) WHERE tracking_request_id IS NOT NULL;

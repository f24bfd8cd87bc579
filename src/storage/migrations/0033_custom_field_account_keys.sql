-- Custom fields, defense in depth (decision 0016): a value cannot point at another account's definition or record,
-- nor an option at another account's definition, whatever a query forgets. The single-column foreign keys of 0030
-- become composite ones that carry the account: (account_id, definition_id) → custom_field_definitions and
-- (account_id, shipment_id | container_id | tracking_request_id) → the record. The referenced (account_id, id) pairs
-- need unique indexes; id alone is already unique, so these hold and add nothing but the keys.
CREATE UNIQUE INDEX custom_field_definitions_account_id_key ON custom_field_definitions (account_id, id);
CREATE UNIQUE INDEX shipments_account_id_key ON shipments (account_id, id);
CREATE UNIQUE INDEX containers_account_id_key ON containers (account_id, id);
CREATE UNIQUE INDEX tracking_requests_account_id_key ON tracking_requests (account_id, id);

ALTER TABLE custom_field_options
  DROP CONSTRAINT custom_field_options_definition_id_fkey,
  ADD CONSTRAINT custom_field_options_definition_fkey FOREIGN KEY (account_id, definition_id)
    REFERENCES custom_field_definitions (account_id, id) ON DELETE CASCADE;

-- MATCH SIMPLE (the default): a NULL record column (the value is on another kind of record) is not checked.
ALTER TABLE custom_fields
  DROP CONSTRAINT custom_fields_definition_id_fkey,
  DROP CONSTRAINT custom_fields_shipment_id_fkey,
  DROP CONSTRAINT custom_fields_container_id_fkey,
  DROP CONSTRAINT custom_fields_tracking_request_id_fkey,
  ADD CONSTRAINT custom_fields_definition_fkey FOREIGN KEY (account_id, definition_id)
    REFERENCES custom_field_definitions (account_id, id) ON DELETE CASCADE,
  ADD CONSTRAINT custom_fields_shipment_fkey FOREIGN KEY (account_id, shipment_id)
    REFERENCES shipments (account_id, id) ON DELETE CASCADE,
  ADD CONSTRAINT custom_fields_container_fkey FOREIGN KEY (account_id, container_id)
    REFERENCES containers (account_id, id) ON DELETE CASCADE,
  ADD CONSTRAINT custom_fields_tracking_request_fkey FOREIGN KEY (account_id, tracking_request_id)
    REFERENCES tracking_requests (account_id, id) ON DELETE CASCADE;

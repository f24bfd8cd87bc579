-- Party roles: which of the account's parties plays which role (shipper, consignee, customer, notify_party or
-- any other name) on one of its shipments or containers. A shipment's `customer` role is mirrored in
-- shipments.customer_id (the customer_name the API shows), which the repository keeps in step.
CREATE TABLE party_roles (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  party_id uuid NOT NULL REFERENCES parties (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (length(role) BETWEEN 1 AND 100),
  shipment_id uuid REFERENCES shipments (id) ON DELETE CASCADE,
  container_id uuid REFERENCES containers (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((shipment_id IS NULL) <> (container_id IS NULL))
);
-- One party plays one role once on a record.
CREATE UNIQUE INDEX party_roles_shipment_key ON party_roles (shipment_id, party_id, lower(role)) WHERE shipment_id IS NOT NULL;
CREATE UNIQUE INDEX party_roles_container_key ON party_roles (container_id, party_id, lower(role)) WHERE container_id IS NOT NULL;
CREATE INDEX party_roles_party_idx ON party_roles (account_id, party_id);

-- The customer a tracking request named becomes the shipment's customer role.
INSERT INTO party_roles (id, account_id, party_id, role, shipment_id, created_at, updated_at)
SELECT gen_random_uuid(), s.account_id, s.customer_id, 'customer', s.id, s.created_at, s.created_at
FROM shipments s WHERE s.customer_id IS NOT NULL;

-- A delivery marked by hand (PATCH /v2/containers/{id} delivered_at): the sources never report one, so it
-- lives beside the engine's snapshot, per account, and survives every refresh.
ALTER TABLE containers ADD COLUMN manual_delivered_at timestamptz;

-- The shipments list filters on these.
CREATE INDEX shipments_account_bl_idx ON shipments (account_id, upper(bill_of_lading_number));
CREATE INDEX shipments_account_customer_idx ON shipments (account_id, customer_id);

-- Tracking engine: tracking requests, the shared tracked items (one per carrier and number, however many
-- accounts follow it), per-account containers and events, raw observations, and the account event log.
-- Columns named *_at that drive domain rules (retries, manifest expiry, next checks, auto-stop) hold domain
-- time (the sandbox world clock when the sandbox is on); created_at/updated_at/lease_until are wall time.

-- One fetch per (carrier, number type, number) for all accounts; `state` is the engine's StoredState.
CREATE TABLE tracked_shipments (
  id uuid PRIMARY KEY,
  scac text NOT NULL,
  number_type text NOT NULL CHECK (number_type IN ('bill_of_lading', 'booking_number', 'container')),
  number text NOT NULL,
  state jsonb,
  -- Rail carrier that answered for these containers (DCSA names none; found by asking each railroad).
  rail_scac text,
  active boolean NOT NULL DEFAULT true,
  stopped_reason text,
  -- When each kind of source is next asked; next_check_at is the earliest of them.
  next_check_at timestamptz,
  line_next_check_at timestamptz,
  terminal_next_check_at timestamptz,
  rail_next_check_at timestamptz,
  line_last_payload_sha256 text,
  line_last_attempted_at timestamptz,
  line_last_succeeded_at timestamptz,
  -- Domain time of the last change the line reported (the 56-day "no updates at line" rule).
  line_last_changed_at timestamptz,
  line_consecutive_failures integer NOT NULL DEFAULT 0,
  line_last_error text,
  terminal_checked_at timestamptz,
  rail_checked_at timestamptz,
  lease_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX tracked_shipments_number_key ON tracked_shipments (scac, number_type, number);
CREATE INDEX tracked_shipments_due_idx ON tracked_shipments (next_check_at) WHERE active;

ALTER TABLE shipments
  ADD COLUMN tracked_shipment_id uuid REFERENCES tracked_shipments (id) ON DELETE SET NULL,
  ADD COLUMN booking_number text,
  ADD COLUMN snapshot jsonb,
  ADD COLUMN line_tracking_next_attempt_at timestamptz,
  ADD COLUMN line_tracking_stopped_by_user boolean NOT NULL DEFAULT false;
CREATE INDEX shipments_tracked_idx ON shipments (tracked_shipment_id);

CREATE TABLE tracking_requests (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  request_type text NOT NULL CHECK (request_type IN ('bill_of_lading', 'booking_number', 'container')),
  request_number text NOT NULL,
  -- Empty until auto-detection picks a carrier.
  scac text NOT NULL DEFAULT '',
  auto_detect_scac boolean NOT NULL DEFAULT false,
  ref_numbers text[] NOT NULL DEFAULT '{}',
  shipment_tags text[] NOT NULL DEFAULT '{}',
  customer_id uuid REFERENCES parties (id) ON DELETE SET NULL,
  status text NOT NULL CHECK (status IN ('pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped')),
  failed_reason text,
  is_retrying boolean NOT NULL DEFAULT false,
  retry_count integer,
  shipment_id uuid REFERENCES shipments (id) ON DELETE SET NULL,
  -- Domain time of the next attempt; null when nothing is due (created, failed).
  next_attempt_at timestamptz,
  awaiting_since timestamptz,
  lease_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX tracking_requests_account_created_idx ON tracking_requests (account_id, created_at DESC, id DESC);
CREATE INDEX tracking_requests_due_idx ON tracking_requests (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

CREATE TABLE containers (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  shipment_id uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  number text NOT NULL,
  ref_numbers text[] NOT NULL DEFAULT '{}',
  current_status text NOT NULL,
  -- The engine's ContainerSnapshot: the wire attributes.
  snapshot jsonb NOT NULL,
  terminal_checked_at timestamptz,
  terminal_next_check_at timestamptz,
  rail_checked_at timestamptz,
  rail_next_check_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX containers_shipment_number_key ON containers (shipment_id, number);
CREATE INDEX containers_account_created_idx ON containers (account_id, created_at DESC, id DESC);
CREATE INDEX containers_account_number_idx ON containers (account_id, number);

-- Stored transport events (container.transport.* and container.pickup_*), one per canonical occurrence.
CREATE TABLE transport_events (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  shipment_id uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  container_id uuid NOT NULL REFERENCES containers (id) ON DELETE CASCADE,
  event text NOT NULL,
  key text NOT NULL,
  "timestamp" timestamptz,
  record jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX transport_events_container_key ON transport_events (container_id, key);
CREATE INDEX transport_events_account_idx ON transport_events (account_id, created_at DESC, id DESC);

CREATE TABLE estimated_events (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  shipment_id uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  event text NOT NULL,
  estimated_timestamp timestamptz NOT NULL,
  record jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX estimated_events_shipment_idx ON estimated_events (shipment_id, created_at);

-- What each source said, kept whole so any state can be re-derived; one row per distinct payload.
CREATE TABLE raw_observations (
  id uuid PRIMARY KEY,
  tracked_shipment_id uuid NOT NULL REFERENCES tracked_shipments (id) ON DELETE CASCADE,
  source_id text NOT NULL,
  target jsonb NOT NULL,
  payload jsonb NOT NULL,
  payload_sha256 text NOT NULL,
  facts jsonb NOT NULL,
  first_fetched_at timestamptz NOT NULL,
  last_fetched_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX raw_observations_payload_key ON raw_observations (tracked_shipment_id, source_id, payload_sha256);

-- How each source has been answering (wall time): for operators, /metrics, and a sick source's backoff.
CREATE TABLE source_health (
  source_id text PRIMARY KEY,
  last_attempt_at timestamptz NOT NULL,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0,
  last_error text
);

-- Every domain event per account, in commit order: what webhooks (the outbox) and the event APIs read.
CREATE TABLE account_events (
  seq bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  event text NOT NULL,
  tracking_request_id uuid REFERENCES tracking_requests (id) ON DELETE SET NULL,
  shipment_id uuid REFERENCES shipments (id) ON DELETE CASCADE,
  container_id uuid REFERENCES containers (id) ON DELETE CASCADE,
  transport_event_id uuid REFERENCES transport_events (id) ON DELETE SET NULL,
  estimated_event_id uuid REFERENCES estimated_events (id) ON DELETE SET NULL,
  payload jsonb NOT NULL,
  occurred_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX account_events_account_idx ON account_events (account_id, seq);

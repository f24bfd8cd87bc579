-- Foundation: accounts, keys, settings, parties, shipments, rate-limit windows.
-- Written for PostgreSQL 15 (the oldest server we support) and PGlite (PostgreSQL 18).

CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  company_name text NOT NULL,
  plan text NOT NULL CHECK (plan IN ('free', 'unlimited')),
  features text[] NOT NULL DEFAULT '{}',
  rate_limits jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX accounts_name_key ON accounts (lower(name));

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text,
  -- First characters of the key (shown masked with last4); the key itself is never stored.
  prefix text NOT NULL,
  last4 text NOT NULL,
  token_sha256 text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_token_sha256_key ON api_keys (token_sha256);
CREATE INDEX api_keys_account_idx ON api_keys (account_id, created_at);

-- Install-wide settings (the admin token digest, the first-start marker).
CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE parties (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  company_name text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX parties_account_company_key ON parties (account_id, lower(company_name));
CREATE INDEX parties_account_created_idx ON parties (account_id, created_at DESC, id DESC);

CREATE TABLE shipments (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  customer_id uuid REFERENCES parties (id) ON DELETE SET NULL,
  bill_of_lading_number text NOT NULL,
  normalized_number text,
  request_number text,
  ref_numbers text[] NOT NULL DEFAULT '{}',
  tags text[] NOT NULL DEFAULT '{}',
  shipping_line_scac text,
  shipping_line_name text,
  shipping_line_short_name text,
  port_of_lading_locode text,
  port_of_lading_name text,
  pol_etd_at timestamptz,
  pol_atd_at timestamptz,
  pol_original_etd_at timestamptz,
  pol_timezone text,
  port_of_discharge_locode text,
  port_of_discharge_name text,
  pod_terminal_firms_code text,
  pod_vessel_name text,
  pod_vessel_imo text,
  pod_voyage_number text,
  pod_eta_at timestamptz,
  pod_original_eta_at timestamptz,
  pod_ata_at timestamptz,
  pod_timezone text,
  destination_locode text,
  destination_name text,
  destination_eta_at timestamptz,
  destination_ata_at timestamptz,
  destination_original_eta_at timestamptz,
  destination_timezone text,
  line_tracking_last_attempted_at timestamptz,
  line_tracking_last_succeeded_at timestamptz,
  line_tracking_stopped_at timestamptz,
  line_tracking_stopped_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX shipments_account_created_idx ON shipments (account_id, created_at DESC, id DESC);

-- Rolling-window rate limiting shared by every API process: one counter per key and fixed window;
-- the rolling count weights the previous window by how much of it still falls in the last 60 s.
CREATE TABLE rate_limit_windows (
  key text NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key, window_start)
);

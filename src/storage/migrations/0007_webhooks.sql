-- Webhooks: endpoints, the notification outbox, and every delivery attempt. Delivery timing is wall time.

CREATE TABLE webhooks (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  events text[] NOT NULL,
  -- Custom headers sent with every delivery: [{"name": …, "value": …}].
  headers jsonb NOT NULL DEFAULT '[]',
  -- The signing secret, sealed (AES-256-GCM) with the installation's secret key; the previous one signs too
  -- until previous_secret_expires_at (a rotation's grace period).
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  -- Since when every delivery has failed (null after any success); past TIDEMARK_WEBHOOKS_DISABLE_AFTER the
  -- webhook is deactivated, with the reason for the account to see.
  failing_since timestamptz,
  deactivated_at timestamptz,
  deactivated_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhooks_account_idx ON webhooks (account_id, created_at DESC, id DESC);
-- The outbox insert looks up an account's active webhooks for each event it commits.
CREATE INDEX webhooks_active_idx ON webhooks (account_id) WHERE active;

-- One row per (webhook, account event): written in the transaction that commits the event.
CREATE TABLE webhook_notifications (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  account_event_id uuid NOT NULL REFERENCES account_events (id) ON DELETE CASCADE,
  event text NOT NULL,
  delivery_status text NOT NULL DEFAULT 'pending' CHECK (delivery_status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  -- Attempts made before the latest redelivery or replay: the retry schedule counts from there.
  retry_base integer NOT NULL DEFAULT 0,
  -- When the next attempt is due (null once succeeded or failed); a claimed row holds a lease.
  next_attempt_at timestamptz,
  lease_until timestamptz,
  -- The document as first sent, byte for byte (text, not jsonb, which would reorder its keys): every attempt
  -- and every redelivery sends the same body.
  body text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX webhook_notifications_event_key ON webhook_notifications (webhook_id, account_event_id);
CREATE INDEX webhook_notifications_account_idx ON webhook_notifications (account_id, created_at DESC, id DESC);
CREATE INDEX webhook_notifications_due_idx ON webhook_notifications (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

CREATE TABLE webhook_notification_logs (
  id uuid PRIMARY KEY,
  notification_id uuid NOT NULL REFERENCES webhook_notifications (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text,
  -- At most 2 KB of what the receiver answered.
  response_body text
);
CREATE INDEX webhook_notification_logs_notification_idx ON webhook_notification_logs (notification_id, attempt);

-- container.created events recorded before 0007 kept milliseconds in their time; the wire has seconds.
UPDATE account_events
SET payload = jsonb_set(payload, '{timestamp}',
  to_jsonb(to_char(date_trunc('second', (payload->>'timestamp')::timestamptz) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')))
WHERE event = 'container.created' AND payload->>'timestamp' LIKE '%.%';

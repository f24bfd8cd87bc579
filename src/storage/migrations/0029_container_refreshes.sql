-- On-demand refreshes (`PATCH /v2/containers/{id}/refresh`) wait here until a refresh job serves them: one row per
-- container, so asking again while one waits adds nothing. Jobs are not tied to rows: each takes the oldest row of
-- the account served longest ago (refresh_turns), so one account's hundreds of requests cannot hold another's
-- back (services/tracking-engine.ts). A row is deleted once the refresh that serves it has committed; a job that
-- dies holding rows (lease_job) gets them back when pg-boss retries it, and anyone may take them after lease_until.
CREATE TABLE container_refreshes (
  container_id uuid PRIMARY KEY REFERENCES containers (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  tracked_shipment_id uuid NOT NULL REFERENCES tracked_shipments (id) ON DELETE CASCADE,
  -- Arrival order (ties of the wall clock broken), and when (wall time).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  requested_at timestamptz NOT NULL,
  -- The job serving it now, and until when (wall time) its hold counts.
  lease_job text,
  lease_until timestamptz,
  -- Refreshes that failed on it (an error of ours, not a source's: sources' failures are recorded and retried by
  -- the schedule); it is given up after a few.
  failures integer NOT NULL DEFAULT 0
);
CREATE INDEX container_refreshes_account_idx ON container_refreshes (account_id, seq);
CREATE INDEX container_refreshes_tracked_idx ON container_refreshes (tracked_shipment_id);

-- When each account last had its turn (a sequence number, not a time: a fixed clock must not make turns tie).
CREATE SEQUENCE refresh_turn_seq;
CREATE TABLE refresh_turns (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  served bigint NOT NULL
);

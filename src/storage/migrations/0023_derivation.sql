-- Which rules of derivation (tracking/derivation.ts DERIVATION_VERSION: status, availability, last free days, the
-- board's pickup facts) the stored tracked shipments and containers were derived under, and the progress of the
-- re-derivation that brings them to the current rules (services/rederive.ts). One row. Version 0: derived before
-- the version was kept; the first start of a version that knows it re-derives everything (a fresh install: nothing).
CREATE TABLE derivation (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version integer NOT NULL,
  -- A re-derivation under way: the version it brings the data to, the step it is at ('tracked': the tracked
  -- shipments and the containers of the account shipments following them; 'shipments': the containers of account
  -- shipments that follow none, stopped ones) and the last id that step has done. Null when none is under way.
  target integer,
  step text CHECK (step IN ('tracked', 'shipments')),
  after_id uuid,
  containers integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  finished_at timestamptz
);
INSERT INTO derivation (version) VALUES (0);

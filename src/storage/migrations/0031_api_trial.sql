-- Plans and the API trial (src/domain/api-trial.ts, docs/api.md "Plans and the API trial"): a free account reads
-- tracking data through the API only during a trial the operator starts, extends or ends; both ends are wall time.
-- Both columns are set together or not at all.
ALTER TABLE accounts ADD COLUMN api_trial_started_at timestamptz;
ALTER TABLE accounts ADD COLUMN api_trial_ends_at timestamptz;
ALTER TABLE accounts ADD CONSTRAINT accounts_api_trial_check
  CHECK ((api_trial_started_at IS NULL) = (api_trial_ends_at IS NULL));

-- The operator's own account, created at the first start (services/setup.ts), is never gated. It is marked rather
-- than taken to be the oldest account, so that deleting or renaming accounts never moves the mark. At most one.
ALTER TABLE accounts ADD COLUMN first_account boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX accounts_first_account_key ON accounts (first_account) WHERE first_account;
-- On an existing install the first start's account is the oldest one: it ran on an empty database.
UPDATE accounts SET first_account = true
  WHERE id = (SELECT id FROM accounts ORDER BY created_at, id LIMIT 1);

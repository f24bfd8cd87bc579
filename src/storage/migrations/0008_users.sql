-- People who sign in to the web app. A user belongs to one account (owner or member); sessions and one-time
-- links (owner setup, invitations, password resets) are stored as SHA-256 digests of their random tokens.

CREATE TABLE users (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL,
  -- scrypt (memory-hard), in the self-describing form lib/passwords.ts writes.
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'member')),
  last_sign_in_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_account_idx ON users (account_id, created_at);

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  token_sha256 bytea NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Sent back by the app in X-CSRF-Token on every write.
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE one_time_tokens (
  id uuid PRIMARY KEY,
  token_sha256 bytea NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('owner_setup', 'invite', 'password_reset')),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- The user a reset is for; null for setup and invitations (the user is created when the link is used).
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  email text,
  role text CHECK (role IN ('owner', 'member')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- E-mail verification of self-serve sign-ups (when SMTP is configured) and the addresses users signed in from
-- (sign-in throttling lets a known address in while an account is under attack from elsewhere).

-- NULL: signed up but not yet confirmed, cannot sign in. Every existing user counts as verified.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;
UPDATE users SET email_verified_at = created_at;

-- A link is `<id>.<secret>`: found by id, its secret compared in constant time with the stored SHA-256 digest.
CREATE TABLE email_verifications (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  secret_sha256 bytea NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_verifications_user_idx ON email_verifications (user_id);

CREATE TABLE user_sign_in_addresses (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  address text NOT NULL,
  last_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, address)
);

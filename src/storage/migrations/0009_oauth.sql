-- The OAuth 2.1 authorization server's records (oidc-provider's models: clients, grants, interactions,
-- authorization codes, access and refresh tokens, sessions), one table for all, as the library's adapter
-- contract expects. Bearer-like ids (codes, tokens, session and interaction ids) are stored as SHA-256
-- digests, so a copy of the table cannot be replayed; client payloads hold their secret sealed.

CREATE TABLE oauth_records (
  model text NOT NULL,
  id_sha256 bytea NOT NULL,
  payload jsonb NOT NULL,
  -- Lookups the library makes besides the id: by grant (revoke everything of a grant), by uid
  -- (a session's cookie-less id) and by user code (device flow; unused but part of the contract).
  grant_id text,
  uid text,
  user_code text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id_sha256)
);
CREATE INDEX oauth_records_grant_idx ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_uid_idx ON oauth_records (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_records_expiry_idx ON oauth_records (expires_at) WHERE expires_at IS NOT NULL;

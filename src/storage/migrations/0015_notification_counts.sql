-- meta.total of the unfiltered GET /v2/webhook_notifications from the per-account counters of 0012 as well:
-- notifications are the largest table an account lists (one row per event and endpoint, about four per container
-- update, never pruned), and COUNT(*) over them grew with every delivery the account ever had. Same rules as
-- 0012 (statement-level triggers, the writer's own transaction, slots); the functions now count four tables.
-- The outbox insert of a refresh is one statement, so a refresh pays one counter update per account it notifies.
ALTER TABLE account_row_counts ADD COLUMN webhook_notifications bigint NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION tidemark_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_row_counts AS r (account_id, slot, shipments, containers, tracking_requests, webhook_notifications)
  SELECT d.account_id, (pg_backend_pid() % 32)::smallint,
    CASE WHEN TG_TABLE_NAME = 'shipments' THEN d.n ELSE 0 END,
    CASE WHEN TG_TABLE_NAME = 'containers' THEN d.n ELSE 0 END,
    CASE WHEN TG_TABLE_NAME = 'tracking_requests' THEN d.n ELSE 0 END,
    CASE WHEN TG_TABLE_NAME = 'webhook_notifications' THEN d.n ELSE 0 END
  FROM (SELECT account_id, CASE WHEN TG_OP = 'INSERT' THEN count(*) ELSE -count(*) END AS n
        FROM changed_rows GROUP BY account_id) d
  WHERE TG_OP = 'INSERT' OR EXISTS (SELECT 1 FROM accounts a WHERE a.id = d.account_id)
  ORDER BY d.account_id
  ON CONFLICT (account_id, slot) DO UPDATE SET
    shipments = r.shipments + EXCLUDED.shipments,
    containers = r.containers + EXCLUDED.containers,
    tracking_requests = r.tracking_requests + EXCLUDED.tracking_requests,
    webhook_notifications = r.webhook_notifications + EXCLUDED.webhook_notifications;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION tidemark_count_moved_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_row_counts AS r (account_id, slot, shipments, containers, tracking_requests, webhook_notifications)
  SELECT v.account_id, (pg_backend_pid() % 32)::smallint,
    CASE WHEN TG_TABLE_NAME = 'shipments' THEN v.n ELSE 0 END,
    CASE WHEN TG_TABLE_NAME = 'containers' THEN v.n ELSE 0 END,
    CASE WHEN TG_TABLE_NAME = 'tracking_requests' THEN v.n ELSE 0 END,
    CASE WHEN TG_TABLE_NAME = 'webhook_notifications' THEN v.n ELSE 0 END
  FROM (VALUES (OLD.account_id, -1), (NEW.account_id, 1)) AS v (account_id, n)
  WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = v.account_id)
  ORDER BY v.account_id
  ON CONFLICT (account_id, slot) DO UPDATE SET
    shipments = r.shipments + EXCLUDED.shipments,
    containers = r.containers + EXCLUDED.containers,
    tracking_requests = r.tracking_requests + EXCLUDED.tracking_requests,
    webhook_notifications = r.webhook_notifications + EXCLUDED.webhook_notifications;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION tidemark_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account_row_counts SET
    shipments = CASE WHEN TG_TABLE_NAME = 'shipments' THEN 0 ELSE shipments END,
    containers = CASE WHEN TG_TABLE_NAME = 'containers' THEN 0 ELSE containers END,
    tracking_requests = CASE WHEN TG_TABLE_NAME = 'tracking_requests' THEN 0 ELSE tracking_requests END,
    webhook_notifications = CASE WHEN TG_TABLE_NAME = 'webhook_notifications' THEN 0 ELSE webhook_notifications END;
  RETURN NULL;
END $$;

-- No writes while the counts are taken and the triggers put in place (reads go on).
LOCK TABLE webhook_notifications IN SHARE MODE;

INSERT INTO account_row_counts AS r (account_id, slot, webhook_notifications)
SELECT account_id, 0, count(*) FROM webhook_notifications GROUP BY account_id
ON CONFLICT (account_id, slot) DO UPDATE SET webhook_notifications = r.webhook_notifications + EXCLUDED.webhook_notifications;

CREATE TRIGGER webhook_notifications_count_inserted AFTER INSERT ON webhook_notifications
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION tidemark_count_rows();
CREATE TRIGGER webhook_notifications_count_deleted AFTER DELETE ON webhook_notifications
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION tidemark_count_rows();
CREATE TRIGGER webhook_notifications_count_moved AFTER UPDATE OF account_id ON webhook_notifications
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION tidemark_count_moved_row();
CREATE TRIGGER webhook_notifications_count_truncated AFTER TRUNCATE ON webhook_notifications
  FOR EACH STATEMENT EXECUTE FUNCTION tidemark_count_truncated();

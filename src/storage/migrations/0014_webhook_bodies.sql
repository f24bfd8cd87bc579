-- Notification bodies (the document as first sent, 2-10 kB of JSON each, written once by the worker that first
-- claims the notification) are compressed with lz4 instead of pglz where the server has it, as 0013 did for the
-- refresh payloads. PGlite is built without lz4 and keeps pglz.
DO $$
BEGIN
  IF 'lz4' = ANY ((SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression')::text[]) THEN
    ALTER TABLE webhook_notifications ALTER COLUMN body SET COMPRESSION lz4;
  END IF;
END $$;

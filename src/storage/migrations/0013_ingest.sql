-- The large JSON values every refresh writes (a tracked shipment's whole state, each source answer's payload and
-- parsed facts: 3-12 kB of text each) are compressed with lz4 instead of pglz where the server has it. Measured
-- with bench/ingest.ts (2 cores): the statements that write them spent 30-45% less time, the same rows in less
-- space. PGlite is built without lz4 and keeps pglz. Values already stored keep their compression until rewritten.
DO $$
BEGIN
  IF 'lz4' = ANY ((SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression')::text[]) THEN
    ALTER TABLE tracked_shipments ALTER COLUMN state SET COMPRESSION lz4;
    ALTER TABLE raw_observations ALTER COLUMN payload SET COMPRESSION lz4, ALTER COLUMN facts SET COMPRESSION lz4;
  END IF;
END $$;

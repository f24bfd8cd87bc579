-- Transport event records gained `observed_at`: when Tidemark first saw the occurrence, or this version of it, in
-- domain time (the engine sets it on every record it makes; tracking/normalize.ts observedAt). Records stored
-- before have none; this gives them the best the record itself tells, in the engine's form (second precision, Z):
--   - a pickup change (`container.pickup_*.changed`) was made at the domain time its key ends with
--     (`<event>|<number>|<value>|<domain now>`, tracking/changes.ts pickupRecord);
--   - an actual was seen no earlier than it happened nor than the source reported it: the later of `timestamp`
--     and `reported_at` (the one known when only one is; none without a `timestamp`);
--   - an estimate or plan was seen no earlier than the source reported it: `reported_at` (its `timestamp` is the
--     time it names, often still to come, so it says nothing of when it was seen); else none.
-- Both copies of the records are filled alike: the rows the API serves (`transport_events.record`) and the tracked
-- shipment's state the engine compares the next refresh with and projects onto accounts that start tracking the
-- number later (`tracked_shipments.state -> transportEvents`). Records that have the key are left as they are.
-- The order of the transport events lists reads `observed_at` of pickup changes (repositories/containers.ts
-- transportEventOrder). test/e2e/observed-at-backfill.test.ts runs this file.
-- Cost: every stored transport event record is rewritten once. On a synthetic 1M-row table on the development
-- machine's PostgreSQL this took 84 s; at 1M containers (10.8M events, docs/performance.md) expect about 15 minutes,
-- during which writes to those rows wait and reads go on.
CREATE FUNCTION tidemark_0024_instant(t text) RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN t ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$'
    THEN t::timestamptz END
$$;

CREATE FUNCTION tidemark_0024_observed_at(r jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT to_jsonb(to_char(o AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
  FROM (SELECT CASE
    WHEN starts_with(r->>'event', 'container.pickup_')
      THEN tidemark_0024_instant(substring(r->>'key' FROM '\|([^|]*)$'))
    WHEN r->>'classifier' = 'actual' AND tidemark_0024_instant(r->>'timestamp') IS NOT NULL
      THEN GREATEST(tidemark_0024_instant(r->>'timestamp'), tidemark_0024_instant(r->>'reported_at'))
    WHEN r->>'classifier' IN ('estimated', 'planned')
      THEN tidemark_0024_instant(r->>'reported_at')
  END AS o) x
$$;

-- A null `o` gives JSON null (the record then has the key, and none is known).
UPDATE transport_events
SET record = record || jsonb_build_object('observed_at', coalesce(tidemark_0024_observed_at(record), 'null'::jsonb))
WHERE NOT record ? 'observed_at';

UPDATE tracked_shipments t
SET state = jsonb_set(t.state, '{transportEvents}', (
  SELECT jsonb_agg(
    CASE WHEN jsonb_typeof(e) <> 'object' OR e ? 'observed_at' THEN e
      ELSE e || jsonb_build_object('observed_at', coalesce(tidemark_0024_observed_at(e), 'null'::jsonb)) END
    ORDER BY i)
  FROM jsonb_array_elements(t.state->'transportEvents') WITH ORDINALITY AS x (e, i)))
WHERE jsonb_typeof(t.state->'transportEvents') = 'array'
  AND EXISTS (
    SELECT 1 FROM jsonb_array_elements(t.state->'transportEvents') e
    WHERE jsonb_typeof(e) = 'object' AND NOT e ? 'observed_at');

DROP FUNCTION tidemark_0024_observed_at(jsonb);
DROP FUNCTION tidemark_0024_instant(text);

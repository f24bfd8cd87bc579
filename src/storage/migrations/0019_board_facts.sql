-- GET /v2/containers/board read the snapshot of every container of the account at (or bound for) a pickup place
-- and judged each in the API process: in the largest account of the 1M data set 46,598 snapshots (their holds,
-- fees, last free day and zones) for every load, about 0.5 s and a p99 of 1.7 s at 50 loads a second. What decides
-- the board apart from the day it is depends on the snapshot alone, so it is now kept beside it, written with it
-- (tracking/attention.ts pickupFacts; repositories/tracking.ts upsertContainers): the zone of the pickup place's
-- calendar, the last free day in that calendar, the holds blocking pickup, availability and a demurrage fee already
-- billed. The board counts and pages in one statement from the index below alone, given the day it is in each zone.
ALTER TABLE containers
  ADD COLUMN pickup_zone text,
  ADD COLUMN pickup_lfd_day date,
  ADD COLUMN pickup_holds integer NOT NULL DEFAULT 0,
  ADD COLUMN pickup_available boolean NOT NULL DEFAULT false,
  ADD COLUMN pickup_billed boolean NOT NULL DEFAULT false;

-- backfill: the facts of the containers the board looks at, as pickupFacts derives them (a zone PostgreSQL does not
-- know counts in UTC, as it does there). Containers in the other statuses get theirs when next written, which is
-- before they can reach the board. src/services/containers-board.test.ts runs this statement against pickupFacts.
WITH zones AS MATERIALIZED (SELECT name FROM pg_timezone_names),
picked AS (
  SELECT c.id, x.inland,
    NULLIF(CASE WHEN x.inland THEN c.snapshot->>'final_destination_timezone' ELSE c.snapshot->>'pod_timezone' END, '') AS zone,
    CASE WHEN x.inland THEN c.snapshot->'ind_facility_holds' ELSE c.snapshot->'holds_at_pod_terminal' END AS holds
  FROM containers c
  CROSS JOIN LATERAL (
    SELECT coalesce((c.snapshot->>'rail_move')::boolean, false) AND c.snapshot->>'pickup_lfd' IS NOT NULL
      AND c.snapshot->>'pickup_lfd' = c.snapshot->>'pickup_lfd_rail' AS inland
  ) x
  WHERE c.current_status NOT IN ('picked_up', 'delivered', 'empty_returned', 'off_dock', 'dropped', 'new', 'on_ship')
)
UPDATE containers c SET
  pickup_zone = p.zone,
  pickup_lfd_day = ((c.snapshot->>'pickup_lfd')::timestamptz
    AT TIME ZONE CASE WHEN p.zone IN (SELECT name FROM zones) THEN p.zone ELSE 'UTC' END)::date,
  pickup_holds = (
    SELECT count(*) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.holds) = 'array' THEN p.holds ELSE '[]'::jsonb END) h
    WHERE h->>'status' = 'hold'),
  pickup_available = coalesce((c.snapshot->>'available_for_pickup')::boolean, false),
  pickup_billed = EXISTS (
    SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c.snapshot->'fees_at_pod_terminal') = 'array'
      THEN c.snapshot->'fees_at_pod_terminal' ELSE '[]'::jsonb END) fee
    WHERE fee->>'type' = 'demurrage' AND (fee->>'amount')::numeric > 0)
FROM picked p WHERE c.id = p.id;
-- end of backfill

-- The board's candidates with everything it judges them on (its predicate is the board query's status list,
-- repositories/containers.ts BOARD_STATUSES: keep the two the same). Replaces 0017's index of the same rows, from
-- which the board had to read each row.
DROP INDEX containers_board_idx;
CREATE INDEX containers_board_idx ON containers (account_id)
  INCLUDE (id, shipment_id, created_at, pickup_zone, pickup_lfd_day, pickup_holds, pickup_available, pickup_billed)
  WHERE current_status NOT IN ('picked_up', 'delivered', 'empty_returned', 'off_dock', 'dropped', 'new', 'on_ship');

-- The account's stopped shipments, which the board leaves out, from an index alone (stops are rare writes).
CREATE INDEX shipments_account_stopped_idx ON shipments (account_id) INCLUDE (id)
  WHERE line_tracking_stopped_at IS NOT NULL;

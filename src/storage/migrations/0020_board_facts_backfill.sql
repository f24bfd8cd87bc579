-- Fills the board's pickup facts (0019) of the containers the board looks at, as tracking/attention.ts pickupFacts
-- derives them (a zone PostgreSQL does not know counts in UTC, as it does there), and of those marked delivered by
-- hand, whose mark may be taken back. The others get theirs when next written, before their status can bring
-- them onto the board. src/services/containers-board.test.ts runs this file against pickupFacts.
-- At 1M containers it rewrites about 330k rows in about 50 s; writes to those rows wait for it, reads go on.
WITH zones AS MATERIALIZED (
  -- Zone names as Intl takes them: in any case.
  SELECT DISTINCT ON (lower(name)) lower(name) AS key, name FROM pg_timezone_names ORDER BY lower(name), name
), picked AS (
  SELECT c.id, x.zone, x.holds,
    -- The last free day's calendar day in the zone; an instant outside years 1900-9999, or a day after 9999, has
    -- none, as in pickupFacts.
    CASE WHEN x.lfd ~ '^(19|[2-9][0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}T'
      THEN (x.lfd::timestamptz AT TIME ZONE coalesce(z.name, 'UTC'))::date END AS lfd_day
  FROM containers c
  CROSS JOIN LATERAL (
    SELECT coalesce((c.snapshot->>'rail_move')::boolean, false) AND c.snapshot->>'pickup_lfd' IS NOT NULL
      AND c.snapshot->>'pickup_lfd' = c.snapshot->>'pickup_lfd_rail' AS inland
  ) i
  CROSS JOIN LATERAL (
    SELECT NULLIF(CASE WHEN i.inland THEN c.snapshot->>'final_destination_timezone' ELSE c.snapshot->>'pod_timezone' END, '') AS zone,
      CASE WHEN i.inland THEN c.snapshot->'ind_facility_holds' ELSE c.snapshot->'holds_at_pod_terminal' END AS holds,
      c.snapshot->>'pickup_lfd' AS lfd
  ) x
  LEFT JOIN zones z ON z.key = lower(x.zone)
  WHERE c.current_status NOT IN ('picked_up', 'delivered', 'empty_returned', 'off_dock', 'dropped', 'new', 'on_ship')
    OR c.manual_delivered_at IS NOT NULL
)
UPDATE containers c SET
  pickup_zone = p.zone,
  pickup_lfd_day = CASE WHEN extract(year FROM p.lfd_day) BETWEEN 1 AND 9999 THEN p.lfd_day END,
  pickup_holds = (
    SELECT count(*) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.holds) = 'array' THEN p.holds ELSE '[]'::jsonb END) h
    WHERE h->>'status' = 'hold'),
  pickup_available = coalesce((c.snapshot->>'available_for_pickup')::boolean, false),
  pickup_billed = EXISTS (
    SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c.snapshot->'fees_at_pod_terminal') = 'array'
      THEN c.snapshot->'fees_at_pod_terminal' ELSE '[]'::jsonb END) fee
    WHERE fee->>'type' = 'demurrage' AND (fee->>'amount')::numeric > 0)
FROM picked p WHERE c.id = p.id;

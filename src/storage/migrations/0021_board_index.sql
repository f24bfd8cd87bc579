-- The board's candidates with everything it judges them on (its predicate is the board query's status list,
-- repositories/containers.ts BOARD_STATUSES: keep the two the same), so the board reads this index alone. Replaces
-- 0017's index of the same rows, from which the board had to read each row.
CREATE INDEX containers_board_facts_idx ON containers (account_id)
  INCLUDE (id, shipment_id, created_at, pickup_zone, pickup_lfd_day, pickup_holds, pickup_available, pickup_billed)
  WHERE current_status NOT IN ('picked_up', 'delivered', 'empty_returned', 'off_dock', 'dropped', 'new', 'on_ship');
DROP INDEX containers_board_idx;

-- The account's stopped shipments, which the board leaves out, from an index alone (stops are rare writes).
CREATE INDEX shipments_account_stopped_idx ON shipments (account_id) INCLUDE (id)
  WHERE line_tracking_stopped_at IS NOT NULL;

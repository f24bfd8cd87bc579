-- The board's candidates changed with the engine's status rules (tracking/snapshot.ts deriveStatus): a box at an
-- off-dock yard (`off_dock`) is still to be picked up, from that yard, and `loaded` (a drayage state: on the
-- trucker's chassis) has left the pickup place. Recreates 0021's index with that predicate (the board query's
-- status list, repositories/containers.ts BOARD_STATUSES: keep the two the same, or the board reads the table).
-- Off-dock boxes last written before 0019 have no pickup facts (0020 filled none for them): the re-derivation at
-- the first start of this version writes every container's (0023, docs/operations.md "Upgrading").
-- One transaction: the board never sees the table without its index. At 1M containers building it takes a few
-- seconds, while writes to containers wait and reads go on.
DROP INDEX containers_board_facts_idx;
CREATE INDEX containers_board_facts_idx ON containers (account_id)
  INCLUDE (id, shipment_id, created_at, pickup_zone, pickup_lfd_day, pickup_holds, pickup_available, pickup_billed)
  WHERE current_status NOT IN ('picked_up', 'delivered', 'empty_returned', 'dropped', 'loaded', 'new', 'on_ship');

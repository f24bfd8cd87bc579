-- GET /v2/containers/board judges the account's containers still at (or on their way to) a pickup place. It
-- walked the account's created_at index over every container the account ever had and read each row: in the
-- largest account of the 1M data set (150k containers) that is every row of the account, on every load of the
-- web app's board. This partial index holds only the containers the board looks at (its predicate is the
-- board query's status list, repositories/containers.ts boardCandidates: keep the two the same), so the board
-- reads those rows alone; it stays small because containers leave it when they are picked up.
CREATE INDEX containers_board_idx ON containers (account_id, created_at DESC, id DESC)
  WHERE current_status NOT IN ('picked_up', 'delivered', 'empty_returned', 'off_dock', 'dropped', 'new', 'on_ship');

-- Shipments filtered by container status (the web app's status filter, the MCP list_shipments tool) counted
-- meta.total with an EXISTS over containers that PostgreSQL could only answer by hashing every container of
-- every account whose status matched: a parallel sequential scan of the whole containers table (1.8 GB at 1M
-- containers; 519 ms for `available` in the largest account of the bench's 1M set). With this index the EXISTS
-- (which now names the account: repositories/shipments.ts) reads the account's containers of those statuses
-- from the index alone (20,502 entries, 42 ms with the walk of the account's 81k shipments). The containers
-- list's status filter counts from it too. A container's status change already leaves HOT updates out
-- (containers_board_idx's predicate reads the status); this index adds one entry to such an update.
CREATE INDEX containers_account_status_idx ON containers (account_id, current_status, shipment_id);

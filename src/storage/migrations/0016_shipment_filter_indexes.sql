-- GET /v2/shipments filtered by port of lading, port of discharge or carrier (the reference API's port filters and
-- the web app's carrier and POD filters) walked the account's created_at index and read every shipment row of the
-- account to count meta.total: in the largest account of the 1M data set (107k shipments) one such COUNT(*) took
-- 85-145 ms and page 1 of the list p99 288 ms (bench/shipments-list.ts, docs/performance/explain.md). These indexes
-- answer the count from the index alone and hand a filtered page its rows already in list order. Each is about 6%
-- of the table's size; a shipment update that is not HOT writes one more entry to each.
-- Built in the migration's transaction: writes to shipments wait while they build (about 0.8 s each at 714k
-- shipments; ten times that at 10M).
CREATE INDEX shipments_account_pol_idx ON shipments (account_id, port_of_lading_locode, created_at DESC, id DESC);
CREATE INDEX shipments_account_pod_idx ON shipments (account_id, port_of_discharge_locode, created_at DESC, id DESC);
CREATE INDEX shipments_account_carrier_idx ON shipments (account_id, shipping_line_scac, created_at DESC, id DESC);

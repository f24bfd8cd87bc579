-- Initial custom fields (docs/custom-fields.md "Values staged with a tracking request"): the values a client sends
-- with POST /v2/tracking_requests (`initial_custom_fields`), checked then and kept here until the request resolves to
-- its shipment; the tracking engine applies them in the transaction that makes the account's shipment and containers,
-- and marks them applied in the same transaction, so they are applied once whatever is retried or re-run.
-- `{shipment: [{api_slug, value}], containers: [{api_slug, value, number}]}` as sent; NULL when none were sent.
ALTER TABLE tracking_requests ADD COLUMN initial_custom_fields jsonb;
-- When they were applied (wall time); NULL until then, and for ever when the request never resolves.
ALTER TABLE tracking_requests ADD COLUMN initial_custom_fields_applied_at timestamptz;
-- What was not applied then, and why (a container number that is not on the shipment, a definition deleted or a
-- value its definition no longer takes since the request was made): `[{entity, index, api_slug, number, reason}]`.
ALTER TABLE tracking_requests ADD COLUMN initial_custom_fields_skipped jsonb;

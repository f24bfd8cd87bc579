-- A tracking request awaiting its manifest is asked again daily until it is manifested or expires after 7 days
-- (docs/tracking.md): it is being retried, so it shows `is_retrying: true` (services/tracking-engine.ts sets it from
-- now on). Requests that were already awaiting it get the same; `next_attempt_at` is set while one is due.
-- A few rows: the requests awaiting a manifest now (at most a week's worth).
UPDATE tracking_requests SET is_retrying = true
WHERE status = 'awaiting_manifest' AND next_attempt_at IS NOT NULL AND NOT is_retrying;

-- Search (GET /v2/search). Exact matches on a record's numbers and reference numbers go through one GIN
-- index per table over the upper-cased keys. Substring matches cannot use an index here (pg_trgm is not
-- available on PGlite): they walk the account's rows newest first through the *_account_created_idx
-- indexes and stop at the per-entity limit.

-- The record's numbers and reference numbers, upper-cased, blanks dropped. The same function turns the
-- user's input into keys, so both sides fold case the same way.
CREATE FUNCTION tidemark_search_keys(numbers text[], refs text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(DISTINCT upper(k)), '{}') FROM unnest(numbers || refs) AS k WHERE k <> '' $$;

CREATE INDEX shipments_search_keys_idx ON shipments
  USING gin (tidemark_search_keys(ARRAY[bill_of_lading_number, booking_number, request_number], ref_numbers));
CREATE INDEX containers_search_keys_idx ON containers
  USING gin (tidemark_search_keys(ARRAY[number], ref_numbers));
CREATE INDEX tracking_requests_search_keys_idx ON tracking_requests
  USING gin (tidemark_search_keys(ARRAY[request_number], ref_numbers));

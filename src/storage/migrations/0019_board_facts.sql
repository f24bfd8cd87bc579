-- GET /v2/containers/board read the snapshot of every container of the account at (or bound for) a pickup place
-- and judged each in the API process: in the largest account of the 1M data set 46,598 snapshots (their holds,
-- fees, last free day and zones) for every load, about 0.5 s and a p99 of 1.7 s at 50 loads a second. What decides
-- the board apart from the day it is depends on the snapshot alone, so it is now kept beside it, written with it
-- (tracking/attention.ts pickupFacts; repositories/tracking.ts upsertContainers): the zone of the pickup place's
-- calendar, the last free day in that calendar, the holds blocking pickup, availability and a demurrage fee already
-- billed. The board counts and pages in one statement from an index alone (0021), given the day it is in each zone.
-- Three migrations, each its own transaction, so that no lock is held longer than its step needs: adding the
-- columns (a catalogue change, instant) takes the table's exclusive lock only for itself; 0020 fills them;
-- 0021 replaces the board's index.
ALTER TABLE containers
  ADD COLUMN pickup_zone text,
  ADD COLUMN pickup_lfd_day date,
  ADD COLUMN pickup_holds integer NOT NULL DEFAULT 0,
  ADD COLUMN pickup_available boolean NOT NULL DEFAULT false,
  ADD COLUMN pickup_billed boolean NOT NULL DEFAULT false;

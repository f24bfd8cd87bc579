-- The advance lock no longer lives in this row: a lease written here outlived a process that died mid-advance
-- (every advance answered 409 for 15 minutes, across restarts). An advance now holds a lock that dies with its
-- holder (services/sandbox.ts). The row keeps how far the last advance got instead, so an advance that stopped
-- short (an error, a crash) says where: both columns are null once an advance reaches its target.
ALTER TABLE sandbox_clock DROP COLUMN advancing_until;
ALTER TABLE sandbox_clock ADD COLUMN advance_target_at timestamptz;
ALTER TABLE sandbox_clock ADD COLUMN advance_reached_at timestamptz;

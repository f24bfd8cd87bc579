-- The destination a vessel reports over AIS (static voyage data, message type 5): free text the crew enters, often
-- a UN/LOCODE. Kept with each position and, for the latest, on the vessel row: the POD arrival is predicted only
-- while the vessel is bound for the POD (or reports nothing), not while it calls at other ports first
-- (src/tracking/predicted-eta.ts). Null for positions stored before, and when none is reported.
ALTER TABLE vessel_positions ADD COLUMN destination text;
ALTER TABLE vessels ADD COLUMN destination text;

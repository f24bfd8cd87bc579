-- Real AIS streams name vessels only by MMSI: every decoded position is matched to our vessels through it, and
-- an MMSI learnt from a static report (type 5: MMSI + IMO) is taken from any other vessel that held it.
CREATE INDEX vessels_mmsi_idx ON vessels (mmsi) WHERE mmsi IS NOT NULL;

-- Tidemark's predicted arrival of a vessel at a port of discharge (beyond the reference API): from the vessel's
-- last AIS position, the remaining sea-route distance and its recent speed (src/tracking/predicted-eta.ts). One row
-- per vessel and POD that an actively tracked shipment names; shipments read it by their POD vessel and POD.
-- Kept here, not computed per request, because a sea route costs milliseconds and lists show dozens of shipments.
CREATE TABLE vessel_pod_etas (
  imo text NOT NULL,
  pod_locode text NOT NULL,
  -- Null when there is nothing to go on (no speed under way: at anchor, drifting); position_at still says
  -- from which position that was found, so it is not looked at again until the vessel moves on.
  predicted_at timestamptz,
  distance_nm double precision,
  speed_knots double precision,
  -- The position the prediction started from (domain time); a newer position means a new prediction.
  position_at timestamptz NOT NULL,
  computed_at timestamptz NOT NULL,
  PRIMARY KEY (imo, pod_locode)
);

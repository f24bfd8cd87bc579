-- Vessels (global reference data, id = UUIDv5 of the IMO number) and the positions AIS reported for them.
-- Carriers name the vessels (engine refreshes); AIS gives MMSI and positions. `position_*` columns are the
-- latest position; `positions_checked_at` (domain time) is when AIS was last asked, so each vessel is asked
-- at most once an hour of domain time. created_at/updated_at are wall time.
CREATE TABLE vessels (
  id uuid PRIMARY KEY,
  imo text NOT NULL UNIQUE CHECK (imo ~ '^[0-9]{7}$'),
  name text,
  mmsi text,
  latitude double precision,
  longitude double precision,
  speed_knots double precision,
  heading_degrees double precision,
  position_at timestamptz,
  positions_checked_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE vessel_positions (
  vessel_id uuid NOT NULL REFERENCES vessels (id) ON DELETE CASCADE,
  "at" timestamptz NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  speed_knots double precision,
  heading_degrees double precision,
  PRIMARY KEY (vessel_id, "at")
);

// Vessels (global reference data) and their AIS positions. Carriers name vessels during refreshes; the AIS
// sweep adds MMSI and positions, and a real AIS stream (matched by MMSI) positions too. `positions_checked_at` and
// position times are domain time.
import { one, type Queryable } from '../db.js';
import { changed, changeTag } from './changes.js';
import type { VesselPodEtas, VesselPositions, Vessels } from '../schema.generated.js';

export interface VesselRow extends Omit<Vessels, 'destination'> {
  /** The destination the latest position reports (AIS free text), null when none (optional for hand-built rows). */
  destination?: Vessels['destination'];
}

export interface VesselPositionRow extends Pick<VesselPositions, 'at' | 'latitude' | 'longitude' | 'speed_knots' | 'heading_degrees'> {
  /** The reported destination (AIS free text, often a UN/LOCODE); null when none (optional for hand-built rows). */
  destination?: VesselPositions['destination'];
}

/**
 * Makes sure each vessel has its row; a name the carrier gives replaces the stored one (carriers rename
 * vessels), a missing name keeps it. Rows that would not change are not touched. One statement for all.
 */
export async function rememberVessels(
  q: Queryable,
  vessels: readonly { id: string; imo: string; name: string | null }[],
  wall: Date,
): Promise<void> {
  if (vessels.length === 0) return;
  await q.query(
    `INSERT INTO vessels (id, imo, name, created_at, updated_at)
     SELECT v.id, v.imo, v.name, $4, $4 FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v (id, imo, name)
     ON CONFLICT (imo) DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at
       WHERE EXCLUDED.name IS NOT NULL AND vessels.name IS DISTINCT FROM EXCLUDED.name`,
    [vessels.map((v) => v.id), vessels.map((v) => v.imo), vessels.map((v) => v.name), wall],
  );
}

export function findVesselById(q: Queryable, id: string): Promise<VesselRow | undefined> {
  return one<VesselRow>(q, 'SELECT * FROM vessels WHERE id = $1', [id]);
}

export function findVesselByImo(q: Queryable, imo: string): Promise<VesselRow | undefined> {
  return one<VesselRow>(q, 'SELECT * FROM vessels WHERE imo = $1', [imo]);
}

export async function findVesselsByImos(q: Queryable, imos: readonly string[]): Promise<VesselRow[]> {
  if (imos.length === 0) return [];
  return q.query<VesselRow>('SELECT * FROM vessels WHERE imo = ANY($1::text[])', [imos]);
}

/** Positions in [from, to], oldest first. */
export function vesselPositions(q: Queryable, vesselId: string, from: Date, to: Date): Promise<VesselPositionRow[]> {
  return q.query<VesselPositionRow>(
    `SELECT "at", latitude, longitude, speed_knots, heading_degrees, destination FROM vessel_positions
     WHERE vessel_id = $1 AND "at" >= $2 AND "at" <= $3 ORDER BY "at"`,
    [vesselId, from, to],
  );
}

/**
 * Vessels that carry an actively tracked shipment not yet arrived at its POD (no `pod_ata_at`) and that AIS
 * was not asked about since `checkedBefore` (domain time). The IMO is read as the engine stored it.
 */
export function vesselsDueForPositions(q: Queryable, checkedBefore: Date, limit: number): Promise<VesselRow[]> {
  return q.query<VesselRow>(
    `SELECT v.* FROM vessels v
     WHERE v.imo IN (
         SELECT regexp_replace(upper(t.state->'shipment'->>'pod_vessel_imo'), '^IMO\\s*', '')
         FROM tracked_shipments t
         WHERE t.active AND t.state->'shipment'->>'pod_vessel_imo' IS NOT NULL
           AND t.state->'shipment'->>'pod_ata_at' IS NULL)
       AND (v.positions_checked_at IS NULL OR v.positions_checked_at <= $1)
     ORDER BY v.positions_checked_at NULLS FIRST, v.imo
     LIMIT $2`,
    [checkedBefore, limit],
  );
}

/**
 * Stores what AIS said about a vessel: new positions (a time already stored is kept as it is), the latest
 * position on the row when it is newer than the stored one, the MMSI, and a name when the row has none.
 * Positions must be oldest first.
 */
export async function recordVesselPositions(
  q: Queryable,
  vesselId: string,
  answer: {
    mmsi: string | null;
    name: string | null;
    positions: readonly {
      at: Date;
      latitude: number;
      longitude: number;
      speedKnots: number | null;
      headingDegrees: number | null;
      /** Absent: none reported. */
      destination?: string | null;
    }[];
  },
  wall: Date,
): Promise<number> {
  const p = answer.positions;
  const inserted =
    p.length === 0
      ? []
      : await q.query(
          `INSERT INTO vessel_positions (vessel_id, "at", latitude, longitude, speed_knots, heading_degrees, destination)
           SELECT $1, x.at, x.lat, x.lon, x.sog, x.hdg, x.dest
           FROM unnest($2::timestamptz[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::text[])
             AS x (at, lat, lon, sog, hdg, dest)
           ON CONFLICT (vessel_id, "at") DO NOTHING
           RETURNING "at"`,
          [
            vesselId,
            p.map((x) => x.at),
            p.map((x) => x.latitude),
            p.map((x) => x.longitude),
            p.map((x) => x.speedKnots),
            p.map((x) => x.headingDegrees),
            p.map((x) => x.destination ?? null),
          ],
        );
  await q.query('UPDATE vessels SET mmsi = COALESCE($2, mmsi), name = COALESCE(name, $3), updated_at = $4 WHERE id = $1', [
    vesselId,
    answer.mmsi,
    answer.name,
    wall,
  ]);
  const latest = p[p.length - 1];
  if (latest) {
    await q.query(
      `UPDATE vessels SET latitude = $3, longitude = $4, speed_knots = $5, heading_degrees = $6, destination = $7,
         position_at = $2
       WHERE id = $1 AND (position_at IS NULL OR position_at < $2)`,
      [vesselId, latest.at, latest.latitude, latest.longitude, latest.speedKnots, latest.headingDegrees, latest.destination ?? null],
    );
  }
  return inserted.length;
}

/**
 * Takes a vessel for one AIS request: marks it asked at `checkedAt` (domain time) unless someone asked since
 * `checkedBefore`, so two workers never ask about the same vessel within the hour. False when taken.
 */
export async function claimVesselForPositions(
  q: Queryable,
  vesselId: string,
  checkedBefore: Date,
  checkedAt: Date,
  wall: Date,
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE vessels SET positions_checked_at = $3, updated_at = $4
     WHERE id = $1 AND (positions_checked_at IS NULL OR positions_checked_at <= $2) RETURNING id`,
    [vesselId, checkedBefore, checkedAt, wall],
  );
  return rows.length > 0;
}

/** Each vessel's IMO number and the MMSI we know for it (null: not yet learnt). */
export function vesselIdentities(q: Queryable): Promise<{ imo: string; mmsi: string | null }[]> {
  return q.query<Pick<Vessels, 'imo' | 'mmsi'>>('SELECT imo, mmsi FROM vessels');
}

/**
 * What an AIS static report (type 5) says: transponder `mmsi` is on vessel `imo`. The vessel with that IMO takes
 * the MMSI (and the name, when it has none); any other vessel that held the MMSI gives it up (MMSIs are reissued
 * when a ship changes flag). Vessels we do not have are not made. Returns the vessels that changed.
 */
export async function learnVesselMmsis(
  q: Queryable,
  learnt: readonly { imo: string; mmsi: string; name: string | null }[],
  wall: Date,
): Promise<number> {
  if (learnt.length === 0) return 0;
  const imos = learnt.map((x) => x.imo);
  const mmsis = learnt.map((x) => x.mmsi);
  await q.query(
    `UPDATE vessels v SET mmsi = NULL, updated_at = $3
     FROM unnest($1::text[], $2::text[]) AS x (imo, mmsi)
     WHERE v.mmsi = x.mmsi AND v.imo <> x.imo`,
    [imos, mmsis, wall],
  );
  const changed = await q.query(
    `UPDATE vessels v SET mmsi = x.mmsi, name = COALESCE(v.name, x.name), updated_at = $4
     FROM unnest($1::text[], $2::text[], $3::text[]) AS x (imo, mmsi, name)
     WHERE v.imo = x.imo AND (v.mmsi IS DISTINCT FROM x.mmsi OR (v.name IS NULL AND x.name IS NOT NULL))
     RETURNING v.id`,
    [imos, mmsis, learnt.map((x) => x.name), wall],
  );
  return changed.length;
}

/** Names from AIS static reports for vessels (matched by MMSI) that have none; a carrier's name is never replaced. */
export async function nameVesselsByMmsi(q: Queryable, names: readonly { mmsi: string; name: string }[], wall: Date): Promise<void> {
  if (names.length === 0) return;
  await q.query(
    `UPDATE vessels v SET name = x.name, updated_at = $3
     FROM unnest($1::text[], $2::text[]) AS x (mmsi, name)
     WHERE v.mmsi = x.mmsi AND v.name IS NULL`,
    [names.map((x) => x.mmsi), names.map((x) => x.name), wall],
  );
}

export interface StreamedPosition {
  mmsi: string;
  at: Date;
  latitude: number;
  longitude: number;
  speedKnots: number | null;
  headingDegrees: number | null;
}

/** History points of one vessel closer together than this are not kept: a stream reports every few seconds. */
export const HISTORY_SPACING_SECONDS = 60;

/**
 * Positions from a streamed AIS feed, matched to vessels by MMSI (unknown MMSIs are ignored): `latest` (at most
 * one per MMSI) becomes the vessel's position when newer than the stored one; each `history` point is appended
 * unless the vessel already has one within HISTORY_SPACING_SECONDS of it, so history grows by at most about one
 * point a minute per vessel. `history` must hold points at least that far apart per MMSI.
 */
export async function recordStreamedPositions(
  q: Queryable,
  latest: readonly StreamedPosition[],
  history: readonly StreamedPosition[],
  wall: Date,
): Promise<{ updated: number; appended: number }> {
  const columns = (ps: readonly StreamedPosition[]) => [
    ps.map((p) => p.mmsi),
    ps.map((p) => p.at),
    ps.map((p) => p.latitude),
    ps.map((p) => p.longitude),
    ps.map((p) => p.speedKnots),
    ps.map((p) => p.headingDegrees),
  ];
  const X =
    'unnest($1::text[], $2::timestamptz[], $3::float8[], $4::float8[], $5::float8[], $6::float8[]) AS x (mmsi, at, lat, lon, sog, hdg)';
  const updated =
    latest.length === 0
      ? []
      : await q.query(
          `UPDATE vessels v SET latitude = x.lat, longitude = x.lon, speed_knots = x.sog, heading_degrees = x.hdg,
             position_at = x.at, updated_at = $7
           FROM ${X}
           WHERE v.mmsi = x.mmsi AND (v.position_at IS NULL OR v.position_at < x.at)
           RETURNING v.id`,
          [...columns(latest), wall],
        );
  const appended =
    history.length === 0
      ? []
      : await q.query(
          `INSERT INTO vessel_positions (vessel_id, "at", latitude, longitude, speed_knots, heading_degrees)
           SELECT v.id, x.at, x.lat, x.lon, x.sog, x.hdg
           FROM ${X} JOIN vessels v ON v.mmsi = x.mmsi
           WHERE NOT EXISTS (
             SELECT 1 FROM vessel_positions p
             WHERE p.vessel_id = v.id
               AND p."at" > x.at - make_interval(secs => $7) AND p."at" < x.at + make_interval(secs => $7))
           ON CONFLICT (vessel_id, "at") DO NOTHING
           RETURNING vessel_id`,
          [...columns(history), HISTORY_SPACING_SECONDS],
        );
  return { updated: updated.length, appended: appended.length };
}

/** A vessel on its way to a port of discharge that an actively tracked shipment names, with its latest position time. */
export interface VesselVoyage extends Pick<Vessels, 'imo' | 'speed_knots'> {
  vessel_id: Vessels['id'];
  /** What the latest position reports as the vessel's destination (AIS free text); null when none. */
  destination: Vessels['destination'];
  /** The POD of the tracked shipment's state, as stored there. */
  pod_locode: string;
  /** Not null: the query asks for a vessel with a position. */
  latitude: NonNullable<Vessels['latitude']>;
  longitude: NonNullable<Vessels['longitude']>;
  position_at: NonNullable<Vessels['position_at']>;
  /** The position the stored prediction was made from (vessel_pod_etas), null without one. */
  predicted_from: VesselPodEtas['position_at'] | null;
}

/**
 * (vessel, POD) pairs of actively tracked shipments not yet arrived whose vessel has a position newer than
 * the prediction's (or no prediction): what `predictArrivals` recomputes.
 */
export function voyagesToPredict(q: Queryable, limit: number): Promise<VesselVoyage[]> {
  return q.query<VesselVoyage>(
    `SELECT v.id AS vessel_id, v.imo, x.pod_locode, v.latitude, v.longitude, v.speed_knots, v.destination, v.position_at,
            e.position_at AS predicted_from
     FROM (SELECT DISTINCT regexp_replace(upper(t.state->'shipment'->>'pod_vessel_imo'), '^IMO\\s*', '') AS imo,
                  t.state->'shipment'->>'port_of_discharge_locode' AS pod_locode
           FROM tracked_shipments t
           WHERE t.active AND t.state->'shipment'->>'pod_vessel_imo' IS NOT NULL
             AND t.state->'shipment'->>'port_of_discharge_locode' IS NOT NULL
             AND t.state->'shipment'->>'pod_ata_at' IS NULL) x
     JOIN vessels v ON v.imo = x.imo
     LEFT JOIN vessel_pod_etas e ON e.imo = x.imo AND e.pod_locode = x.pod_locode
     WHERE v.position_at IS NOT NULL AND v.latitude IS NOT NULL AND v.longitude IS NOT NULL
       AND (e.position_at IS NULL OR e.position_at < v.position_at)
     ORDER BY v.imo, x.pod_locode
     LIMIT $1`,
    [limit],
  );
}

/** The prediction for a vessel and POD as of `positionAt`; `eta` null: nothing to go on from that position. */
export async function putVesselPodEta(
  q: Queryable,
  key: { imo: string; podLocode: string; positionAt: Date },
  eta: { predictedAt: Date; distanceNm: number; speedKnots: number } | null,
  wall: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO vessel_pod_etas (imo, pod_locode, predicted_at, distance_nm, speed_knots, position_at, computed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (imo, pod_locode) DO UPDATE SET predicted_at = EXCLUDED.predicted_at, distance_nm = EXCLUDED.distance_nm,
       speed_knots = EXCLUDED.speed_knots, position_at = EXCLUDED.position_at, computed_at = EXCLUDED.computed_at`,
    [key.imo, key.podLocode, eta?.predictedAt ?? null, eta?.distanceNm ?? null, eta?.speedKnots ?? null, key.positionAt, wall],
  );
  changed(q, [changeTag.vessel(key.imo)]);
}

// GET /v2/containers/{id}/map_geojson (the `routing` feature): the container's route as plain GeoJSON.
import { z } from 'zod';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { type MapFeatureCollection, mapGeojson } from '../../../render/map-geojson.js';
import { instant } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams } from '../../schemas.js';

// ---------- the answer (render/map-geojson.ts): plain GeoJSON, not JSON:API ----------

const position = z.tuple([z.number(), z.number()]).meta({
  description: '`[longitude, latitude]`; along a line, longitudes run on past ±180 where it crosses the antimeridian',
});
const geometry = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('Point'), coordinates: position }),
  z.strictObject({ type: z.literal('LineString'), coordinates: z.array(position) }),
]);
const int = z.number().int();
const when = instant.nullable();
/** `departure_port_…` / `arrival_port_…` of the current vessel: the port of that end of the leg being sailed. */
const legEnd = <const P extends string>(prefix: P) => ({
  [`${prefix}_id`]: z.string(),
  [`${prefix}_name`]: z.string(),
  [`${prefix}_state_abbr`]: z.string().nullable(),
  [`${prefix}_state`]: z.string().nullable(),
  [`${prefix}_country_code`]: z.string(),
  [`${prefix}_country`]: z.string(),
  [`${prefix}_label`]: z.string(),
  [`${prefix}_time_zone`]: z.string(),
});

const properties = z.discriminatedUnion('feature_type', [
  z.strictObject({
    feature_type: z.literal('port'),
    ports_sequence: int,
    ports_total: int,
    location_id: z.string(),
    location_type: z.literal('Port'),
    name: z.string(),
    state_abbr: z.string().nullable(),
    state: z.string().nullable(),
    country_code: z.string(),
    country: z.string(),
    time_zone: z.string(),
    label: z.string().meta({ description: '`POL`, `TS1`, `TS2`…, `POD`' }),
    inbound_eta_at: when,
    inbound_ata_at: when,
    outbound_etd_at: when,
    outbound_atd_at: when,
    updated_at: when,
  }),
  z.strictObject({
    feature_type: z.literal('current_vessel'),
    ports_sequence: int,
    vessel_id: z.string(),
    vessel_name: z.string().nullable(),
    vessel_imo: z.string(),
    voyage_number: z.string().nullable(),
    vessel_location_timestamp: when,
    vessel_location_heading: z.number().nullable(),
    vessel_location_speed: z.number().nullable(),
    ...legEnd('departure_port'),
    departure_port_atd: when,
    ...legEnd('arrival_port'),
    arrival_port_eta: when,
  }),
  z.strictObject({
    feature_type: z.literal('past_vessel_locations'),
    ports_sequence: int,
    vessel_id: z.string(),
    start_time: when,
    end_time: when,
    point_count: int,
    outbound_atd_at: when,
    inbound_ata_at: when,
    inbound_eta_at: when,
  }),
  z.strictObject({
    feature_type: z.literal('estimated_partial_leg'),
    ports_sequence: int,
    current_port_id: z.string(),
    next_port_id: z.string(),
    point_count: int,
  }),
  z.strictObject({
    feature_type: z.literal('estimated_full_legs'),
    ports_sequence: int,
    previous_port_id: z.string(),
    next_port_id: z.string(),
    point_count: int,
  }),
]);

/** Typed as the renderer's result: the schema says more than its `properties: Record<string, unknown>`. */
const featureCollection: z.ZodType<MapFeatureCollection> = z.strictObject({
  type: z.literal('FeatureCollection'),
  features: z.array(z.strictObject({ type: z.literal('Feature'), geometry, properties })),
});

export default function containerMapGeojson(app: App, deps: HttpDeps) {
  app.get(
    '/v2/containers/:id/map_geojson',
    {
      config: { feature: 'routing' },
      schema: {
        tags: ['containers'],
        summary: "A container's route as GeoJSON",
        description: [
          'A plain GeoJSON FeatureCollection (not JSON:API). `properties.feature_type` is one of:',
          '`port` (POL, transshipment ports `TS1`…, POD: sequence, ETAs/ATAs, ETDs/ATDs),',
          '`current_vessel` (the vessel of the leg being sailed at its latest AIS position),',
          '`past_vessel_locations` (the AIS track of a leg sailed or being sailed),',
          '`estimated_partial_leg` (the sea route from the vessel to the next port) and',
          '`estimated_full_legs` (the sea route of a leg without a track). Needs the `routing` feature (403).',
        ].join(' '),
        params: idParams,
        // 400: a query parameter with text that cannot be stored (http/text-guard.ts), on every route, parameters or not.
        response: {
          200: described(featureCollection, "The container's route (plain GeoJSON)"),
          ...errorResponses(400, 403, 404, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const route = await deps.containers.route(accountOf(req).id, req.params.id);
      return reply.code(200).type('application/json; charset=utf-8').send(mapGeojson(route));
    },
  );
}

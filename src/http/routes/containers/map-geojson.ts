// GET /v2/containers/{id}/map_geojson (the `routing` feature): the container's route as plain GeoJSON.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { mapGeojson } from '../../../render/map-geojson.js';
import { idParams } from '../../schemas.js';

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
      },
    },
    async (req, reply) => {
      const route = await deps.containers.route(accountOf(req).id, req.params.id);
      return reply.code(200).type('application/json; charset=utf-8').send(mapGeojson(route));
    },
  );
}

// What GET /v2/vessels/{id}/future_positions and …/future_positions_with_coordinates (the `routing` feature) share:
// their parameters, reading them, and the vessel with `positions` one minute apart along the estimated sea route
// to a port, at its recent speed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type ErrorItem, validationFailed } from '../../../domain/errors.js';
import type { LatLon } from '../../../lib/sea-routes/index.js';
import type { FutureVoyage } from '../../../services/vessels.js';
import type { HttpDeps } from '../../context.js';
import { isoSeconds } from '../../../lib/dates.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { vesselKind } from '../../../render/vessel.js';
import { instant, resourceDocument, vesselResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';
import { routingRefused } from './routing-gate.js';

/** A query parameter's documented type; anything else given for it is a 422 from the handler, not a 400 here. */
export const param = (description: string) => z.union([z.string(), z.unknown()]).optional().describe(description);

export const portQuery = {
  port_id: param('Required. The destination port: its id (UUID) or UN/LOCODE'),
  previous_port_id: param('The port the vessel last left (id or UN/LOCODE); checked and echoed in `meta`'),
};

export const params = z.object({ id: z.string().describe('Vessel id (UUID) or IMO number') });

/** What every future-positions request asks, or every problem with it at once (422, each naming its parameter). */
export function parseAsk(
  query: Record<string, unknown>,
  withCoordinates: boolean,
): { portKey: string; previousPortKey?: string; from?: LatLon } {
  const problems: ErrorItem[] = [];
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      problems.push({ detail: `${name} must be given once, as a single value`, parameter: name, code: 'invalid' });
      return undefined;
    }
    return value.trim() || undefined;
  };
  const required = (name: string, what: string): string | undefined => {
    const before = problems.length;
    const value = single(name);
    if (value === undefined && problems.length === before) {
      problems.push({ detail: `${name} can't be blank: ${what}`, parameter: name, code: 'blank' });
    }
    return value;
  };
  const coordinate = (name: 'latitude' | 'longitude', limit: number): number | undefined => {
    const text = required(name, `the starting ${name} in decimal degrees`);
    if (text === undefined) return undefined;
    // Decimal degrees only: Number() would also take `0x1f`, `1e1` or `Infinity`.
    const value = /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isFinite(value) || Math.abs(value) > limit) {
      problems.push({ detail: `${name} must be a number from -${limit} to ${limit}, got '${text}'`, parameter: name, code: 'invalid' });
      return undefined;
    }
    return value;
  };
  const portKey = required('port_id', "the destination port's id");
  const previousPortKey = single('previous_port_id');
  const lat = withCoordinates ? coordinate('latitude', 90) : undefined;
  const lon = withCoordinates ? coordinate('longitude', 180) : undefined;
  if (problems.length) throw validationFailed(problems);
  return {
    portKey: portKey!,
    ...(previousPortKey ? { previousPortKey } : {}),
    ...(lat !== undefined && lon !== undefined ? { from: { lat, lon } } : {}),
  };
}

/** The document `meta` of both routes: where the positions lead, from where, at what speed (sendVoyage). */
const voyageMeta = z.strictObject({
  port_id: z.string(),
  port_locode: z.string(),
  previous_port_id: z.string().nullable(),
  starts_from: z
    .enum(['coordinates', 'last_position'])
    .meta({ description: "`coordinates`: the ones asked; `last_position`: the vessel's latest AIS position, at its time" }),
  speed_knots: z.number(),
  speed_basis: z
    .enum(['ais', 'default'])
    .meta({ description: '`ais`: the median speed over ground of its recent positions under way; `default`: 15 kn, none was known' }),
  distance_nm: z.number(),
  estimated_arrival_at: instant,
  positions_count: z.number().int(),
});

/** What both routes answer (`response`): the vessel with its estimated `positions`, or why not. */
export const voyageResponses = {
  200: described(
    resourceDocument(vesselResource, { meta: voyageMeta }),
    'The vessel with its estimated `positions` (one a minute, `estimated: true`) and the voyage in `meta`',
  ),
  // 400: a query parameter with text that cannot be stored; 404: the vessel, or the port (`source.parameter`);
  // 422: a missing or bad parameter, a vessel without a position to start from, a voyage too long to list.
  ...errorResponses(400, 404, 422, ...API_ERRORS),
  403: routingRefused,
};

export function sendVoyage(reply: FastifyReply, req: FastifyRequest, deps: HttpDeps, voyage: FutureVoyage): FastifyReply {
  const positions = voyage.positions.map((p) => ({
    at: p.at,
    latitude: p.latitude,
    longitude: p.longitude,
    heading_degrees: p.heading,
    estimated: true,
  }));
  return sendDocument(reply, 200, {
    data: vesselKind.render({ ...voyage.vessel, positions }),
    links: { self: selfUrl(deps.config.publicUrl, req) },
    meta: {
      port_id: voyage.port.id,
      port_locode: voyage.port.locode,
      previous_port_id: voyage.previousPort?.id ?? null,
      starts_from: voyage.start,
      speed_knots: Math.round(voyage.speed.knots * 10) / 10,
      speed_basis: voyage.speed.basis,
      distance_nm: Math.round(voyage.distanceNm * 10) / 10,
      estimated_arrival_at: isoSeconds(voyage.arrivalAt),
      positions_count: voyage.positions.length,
    },
  });
}

/** What both future-positions routes describe alike. */
export const FUTURE_POSITIONS_DESCRIPTION = [
  'Positions are one minute apart, `estimated: true`, each `heading` the bearing to the next position (the last: its course on arrival);',
  "the last is the port's position. Speed: the median speed over ground of the vessel's AIS positions under way (≥ 3 kn) in the 72 hours",
  'up to its latest one, else 15 kn; `meta` says which, with the distance and the estimated arrival. Needs the `routing` feature (403).',
  '404 for an unknown vessel or port (`source.parameter` names the port parameter); 422 naming the parameter for a missing or bad one.',
].join(' ');

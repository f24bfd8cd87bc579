// GET /v2/vessels/{id or IMO}: a vessel and its latest AIS position; with `show_positions[…]` (the
// `routing` feature) the positions gathered in a window of domain time, oldest first.
import { z } from 'zod';
import { badRequest } from '../../../domain/errors.js';
import type { App, HttpDeps } from '../../context.js';
import { vesselKind } from '../../../render/vessel.js';
import { sendOne } from '../handlers.js';
import { resourceDocument, vesselResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses } from '../../schemas.js';
import { refuseWithoutRouting, routingRefused } from './routing-gate.js';

const DAY_MS = 86_400_000;
const WINDOW_KEYS = ['from_timestamp', 'to_timestamp'] as const;

const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

const query = z
  .object({
    show_positions: z
      .union([
        z
          .object({
            from_timestamp: z.string().optional().describe('ISO 8601; default: 7 days before now (domain time)'),
            to_timestamp: z.string().optional().describe('ISO 8601; default: now (domain time)'),
          })
          .catchall(z.unknown()),
        z.unknown(),
      ])
      .optional()
      .describe('Asks for `positions` (needs the routing feature); `show_positions=true` for the default window'),
  })
  .catchall(z.unknown());

/** One bound of the window: ISO 8601 with Z or an offset, or a date (UTC midnight). */
function parseInstant(value: unknown, parameter: string): Date | undefined {
  if (value === undefined || value === '') return undefined;
  // A raw `+01:00` offset arrives as a space: query strings decode `+` to one.
  const text = typeof value === 'string' ? value.replace(/ (\d{2}:?\d{2})$/, '+$1') : value;
  const parsed = instant.safeParse(text);
  if (!parsed.success) throw badRequest(`${parameter} must be an ISO 8601 timestamp, e.g. 2026-03-01T00:00:00Z`, { parameter });
  return new Date(parsed.data.length === 10 ? `${parsed.data}T00:00:00Z` : parsed.data);
}

/**
 * The asked window, defaults filled in (api-wire-notes §2.6: from now − 7 days to now); throws 400 naming the
 * parameter at fault. A `to` given earlier than now − 7 days moves the default `from` to 7 days before it,
 * so leaving `from` out never makes a window that ends before it starts. `show_positions=true` (or empty)
 * asks for the default window.
 */
function positionsWindow(raw: unknown, now: Date): { from: Date; to: Date } {
  if (typeof raw === 'string' && (raw === '' || raw.toLowerCase() === 'true')) return positionsWindow({}, now);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw badRequest('show_positions takes show_positions[from_timestamp] and show_positions[to_timestamp]', {
      parameter: 'show_positions',
    });
  }
  const window = raw as Record<string, unknown>;
  for (const k of Object.keys(window)) {
    if (!(WINDOW_KEYS as readonly string[]).includes(k)) {
      throw badRequest(`show_positions[${k}] is not a parameter; use from_timestamp and to_timestamp`, {
        parameter: `show_positions[${k}]`,
      });
    }
  }
  const to = parseInstant(window.to_timestamp, 'show_positions[to_timestamp]') ?? now;
  const weekAgo = now.getTime() - 7 * DAY_MS;
  const from =
    parseInstant(window.from_timestamp, 'show_positions[from_timestamp]') ??
    new Date(to.getTime() < weekAgo ? to.getTime() - 7 * DAY_MS : weekAgo);
  if (from.getTime() > to.getTime()) {
    throw badRequest('show_positions[from_timestamp] must not be after show_positions[to_timestamp]', {
      parameter: 'show_positions[from_timestamp]',
    });
  }
  return { from, to };
}

export default function getVessel(app: App, deps: HttpDeps) {
  app.get(
    '/v2/vessels/:id',
    {
      schema: {
        tags: ['vessels'],
        summary: 'Get a vessel',
        description: [
          'A vessel by its id or its IMO number, with its latest AIS position (numbers).',
          '`show_positions[from_timestamp]` / `show_positions[to_timestamp]` (ISO 8601; default the last 7 days of domain time)',
          'add `positions`, oldest first; positions need the `routing` feature (403 otherwise).',
        ].join(' '),
        params: z.object({ id: z.string().describe('Vessel id (UUID) or IMO number') }),
        querystring: query,
        response: {
          200: described(resourceDocument(vesselResource), 'The vessel, with `positions` when they were asked for'),
          // 400: a bad `show_positions` window; 403: positions without the `routing` feature.
          ...errorResponses(400, 404, ...API_ERRORS),
          403: routingRefused,
        },
      },
    },
    async (req, reply) => {
      const raw = req.query.show_positions;
      if (raw !== undefined) {
        const refused = refuseWithoutRouting(req, reply);
        if (refused) return refused;
      }
      const window = raw === undefined ? null : positionsWindow(raw, deps.clocks.world.now());
      return sendOne(reply, req, deps.config.publicUrl, {
        kind: vesselKind,
        include: null,
        load: async () => {
          const vessel = await deps.vessels.get(req.params.id);
          return window ? { ...vessel, positions: await deps.vessels.positions(vessel, window.from, window.to) } : vessel;
        },
      });
    },
  );
}

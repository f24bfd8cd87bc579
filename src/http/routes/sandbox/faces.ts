// The simulated outside world over HTTP: carriers (DCSA TNT 2.2 and Arrival Notice 1.0.1), terminals, railroads and AIS. Not part of
// the Tidemark API (hidden from its OpenAPI document); the wire shapes are in src/sandbox/faces/README.md.
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import type { FaceResponse, SandboxService } from '../../../services/sandbox.js';

const REFERENCES = {
  transportDocumentReference: 'bill_of_lading',
  carrierBookingReference: 'booking_number',
  equipmentReference: 'container',
} as const;

/** The standard lets a publisher cap how many references one request may name (and answer 400 above it). */
const MAX_AN_REFERENCES = 20;

function send(reply: FastifyReply, face: FaceResponse) {
  return reply.code(face.status).headers(face.headers).send(face.body);
}

function dcsaError(reply: FastifyReply, deps: HttpDeps, url: string, message: string) {
  return reply.code(400).send({
    httpMethod: 'GET',
    requestUri: url,
    statusCode: 400,
    statusCodeText: 'Bad Request',
    errorDateTime: deps.clocks.wall.now().toISOString(),
    errors: [{ reason: 'invalidQuery', message }],
  });
}

export default function sandboxFaces(app: App, deps: HttpDeps & { sandbox: SandboxService }) {
  const hidden = { hide: true } as const;
  // Both simulated-carrier endpoints: open, hidden from the OpenAPI document, one carrier by SCAC.
  const carrierFace = {
    config: { auth: 'none' as const },
    schema: {
      ...hidden,
      params: z.object({ scac: z.string().regex(/^[A-Za-z]{2,4}$/) }),
    },
  };
  // The faces check their queries themselves and answer in their own shapes (DCSA errors, feedback elements), so
  // the schemas only name the parameters: nothing a client sends is refused before the handler sees it.
  const any = z.unknown().optional();
  const eventsQuery = z
    .object({
      transportDocumentReference: any,
      carrierBookingReference: any,
      equipmentReference: any,
      limit: any,
      cursor: any,
      eventType: any,
    })
    .catchall(z.unknown());
  const arrivalNoticesQuery = z.object({ transportDocumentReferences: any, equipmentReferences: any }).catchall(z.unknown());

  app.get(
    '/sandbox/carriers/:scac/v2/events',
    { ...carrierFace, schema: { ...carrierFace.schema, querystring: eventsQuery } },
    async (req, reply) => {
      const q = req.query;
      const given = (Object.keys(REFERENCES) as (keyof typeof REFERENCES)[]).filter((k) => typeof q[k] === 'string' && q[k] !== '');
      if (given.length !== 1) {
        return dcsaError(
          reply,
          deps,
          req.url,
          'Give exactly one of transportDocumentReference, carrierBookingReference, equipmentReference',
        );
      }
      const reference = given[0]!;
      const limit = q.limit === undefined ? undefined : Number(q.limit);
      if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1))
        return dcsaError(reply, deps, req.url, 'limit must be a positive integer');
      const self = new URL(req.url, deps.config.publicUrl).href;
      const face = await deps.sandbox.carrierEvents(
        req.params.scac,
        {
          numberType: REFERENCES[reference],
          number: q[reference] as string,
          ...(limit !== undefined ? { limit } : {}),
          ...(typeof q.cursor === 'string' ? { cursor: q.cursor } : {}),
          ...(typeof q.eventType === 'string' ? { eventType: q.eventType } : {}),
        },
        self,
      );
      return send(reply, face);
    },
  );

  app.get(
    '/sandbox/carriers/:scac/v1/arrival-notices',
    { ...carrierFace, schema: { ...carrierFace.schema, querystring: arrivalNoticesQuery } },
    async (req, reply) => {
      const q = req.query;
      // `explode: false` arrays: comma-separated; a repeated parameter is read too.
      const list = (value: unknown): string[] =>
        (Array.isArray(value) ? value : [value])
          .filter((v): v is string => typeof v === 'string')
          .flatMap((v) => v.split(','))
          .map((v) => v.trim())
          .filter(Boolean);
      const transportDocumentReferences = list(q.transportDocumentReferences);
      const equipmentReferences = list(q.equipmentReferences);
      if (transportDocumentReferences.length + equipmentReferences.length > MAX_AN_REFERENCES) {
        return reply
          .code(400)
          .headers({ 'api-version': '1.0.1' })
          .send({ feedbackElements: [{ severity: 'ERROR', message: `At most ${MAX_AN_REFERENCES} references per request` }] });
      }
      return send(reply, await deps.sandbox.carrierArrivalNotices(req.params.scac, { transportDocumentReferences, equipmentReferences }));
    },
  );

  app.get(
    '/sandbox/terminals/:code/containers/:number',
    {
      config: { auth: 'none' },
      schema: { ...hidden, params: z.object({ code: z.string().min(1).max(20), number: z.string().min(1).max(20) }) },
    },
    async (req, reply) => send(reply, await deps.sandbox.terminalContainer(req.params.code, req.params.number)),
  );

  app.get(
    '/sandbox/rail/:scac/containers/:number',
    {
      config: { auth: 'none' },
      schema: { ...hidden, params: z.object({ scac: z.string().min(2).max(4), number: z.string().min(1).max(20) }) },
    },
    async (req, reply) => send(reply, await deps.sandbox.railContainer(req.params.scac, req.params.number)),
  );

  app.get(
    '/sandbox/ais/vessels/:imo',
    {
      config: { auth: 'none' },
      schema: {
        ...hidden,
        params: z.object({ imo: z.string().regex(/^\d{7}$/) }),
        querystring: z.object({ from: z.iso.datetime({ offset: true }).optional(), to: z.iso.datetime({ offset: true }).optional() }),
      },
    },
    async (req, reply) => {
      const window = {
        ...(req.query.from ? { from: new Date(req.query.from) } : {}),
        ...(req.query.to ? { to: new Date(req.query.to) } : {}),
      };
      return send(reply, await deps.sandbox.aisVessel(req.params.imo, window));
    },
  );
}

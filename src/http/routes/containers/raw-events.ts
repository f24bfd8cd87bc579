// GET /v2/containers/{id}/raw_events: what each source said about the container, in its own words.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { rawEventKindOf } from '../../../render/container.js';
import { parseInclude, resolveIncluded } from '../../../render/jsonapi.js';
import { listDocument, rawEventResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams } from '../../schemas.js';

export default function containerRawEvents(app: App, deps: HttpDeps) {
  const kind = rawEventKindOf(deps);
  app.get(
    '/v2/containers/:id/raw_events',
    {
      schema: {
        tags: ['containers'],
        summary: "A container's raw events",
        description:
          'What each source (shipping line, terminal, railroad) said about the container in its latest answer, in its own words and in time order, estimated future events included.',
        params: idParams,
        // 400: a query parameter with text that cannot be stored (http/text-guard.ts), on every route, parameters or not.
        response: {
          200: described(listDocument(rawEventResource), "The container's raw events, all of them (not paged)"),
          ...errorResponses(400, 404, ...API_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const { container, events } = await deps.containers.rawEvents(accountOf(req).id, req.params.id);
      const records = events.map((e) => ({ ...e, containerId: container.id }));
      // As the reference answers: the events' locations, vessels and terminals included.
      const included = await resolveIncluded(kind, records, parseInclude('location,vessel,terminal', kind));
      return sendDocument(reply, 200, {
        data: records.map((r) => kind.render(r)),
        included,
        links: { self: selfUrl(deps.config.publicUrl, req) },
      });
    },
  );
}

// GET /v2/shipping_lines/{id}: a shipping line the account can track.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { shippingLineKind } from '../../../render/shipping-line.js';
import { resourceDocument, shippingLineResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams } from '../../schemas.js';
import { sendOne } from '../handlers.js';

export default function getShippingLine(app: App, deps: HttpDeps) {
  app.get(
    '/v2/shipping_lines/:id',
    {
      schema: {
        tags: ['shipping_lines'],
        summary: 'Get a shipping line',
        params: idParams,
        // 404 also for a carrier the account cannot track.
        // 400: a query parameter with text that cannot be stored (http/text-guard.ts), on every route, parameters or not.
        response: {
          200: described(resourceDocument(shippingLineResource), 'The shipping line'),
          ...errorResponses(400, 404, ...API_ERRORS),
        },
      },
    },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, {
        kind: shippingLineKind,
        include: null,
        load: () => deps.shippingLines.get(accountOf(req), req.params.id),
      }),
  );
}

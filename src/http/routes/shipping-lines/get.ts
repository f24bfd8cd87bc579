// GET /v2/shipping_lines/{id}: a shipping line the account can track.
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { shippingLineKind } from '../../../render/shipping-line.js';
import { idParams } from '../../schemas.js';
import { sendOne } from '../handlers.js';

export default function getShippingLine(app: App, deps: HttpDeps) {
  app.get(
    '/v2/shipping_lines/:id',
    { schema: { tags: ['shipping_lines'], summary: 'Get a shipping line', params: idParams } },
    async (req, reply) =>
      sendOne(reply, req, deps.config.publicUrl, {
        kind: shippingLineKind,
        include: null,
        load: () => deps.shippingLines.get(accountOf(req), req.params.id),
      }),
  );
}

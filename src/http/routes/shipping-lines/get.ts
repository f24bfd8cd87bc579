import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';
import { shippingLineKind } from '../../../render/shipping-line.js';

export default function getShippingLine(app: App, deps: HttpDeps) {
  app.get('/v2/shipping_lines/:id', { schema: { tags: ['shipping_lines'], summary: 'Get a shipping line' } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const line = deps.shippingLines.get(accountOf(req), id);
    return sendDocument(reply, 200, { data: shippingLineKind.render(line), links: { self: selfUrl(deps.config.publicUrl, req) } });
  });
}

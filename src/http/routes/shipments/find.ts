// GET /shipments/find?q=<identifier>: the browser deep link (not API). Resolves, within the signed-in account,
// (1) an exact container number → its shipment page with the container selected, (2) an exact bill of lading,
// booking or reference number → the shipment page, (3) the first partial container match, (4) the first
// partial shipment match, (5) else the shipments list with the query filled in. Not signed in: sign in first,
// then back here.
import { authenticateSession } from '../../auth.js';
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';

/** `q` as typed in the address bar: anything that is not one string finds nothing (the shipments list). */
const querystring = z.object({ q: z.unknown().optional() }).catchall(z.unknown());

export default function findShipment(app: App, deps: HttpDeps) {
  app.get('/shipments/find', { schema: { hide: true, querystring }, config: { auth: 'none' } }, async (req, reply) => {
    const raw = req.query.q;
    const q = typeof raw === 'string' ? raw.trim() : '';
    if (!(await authenticateSession(req, deps))) {
      return reply.redirect(`/signin?next=${encodeURIComponent(req.url)}`, 302);
    }
    if (!q) return reply.redirect('/shipments', 302);
    return reply.redirect(await deps.search.deepLink(req.account!.id, q), 302);
  });
}

// POST /oauth/interaction/{uid}/abort: the user declines.
import { authenticateSession } from '../../auth.js';
import type { App, HttpDeps } from '../../context.js';
import { anyBody, hide, limitConsent, open, uidParams } from './limits.js';

export default function interactionAbort(app: App, deps: HttpDeps) {
  app.post('/oauth/interaction/:uid/abort', { schema: { ...hide, params: uidParams, body: anyBody }, config: open }, async (req, reply) => {
    await limitConsent(deps, req);
    // A signed-in browser must show its CSRF token (authenticateSession checks it on writes); a signed-out one may decline.
    await authenticateSession(req, deps);
    return { redirect_to: await deps.oauth.abort(req.raw, reply.raw, req.params.uid) };
  });
}

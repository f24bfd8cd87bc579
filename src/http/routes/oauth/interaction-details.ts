// GET /oauth/interaction/{uid}/details: the consent page's questions (the client, the scopes, who is signed in).
// The browser brings the library's interaction cookie (scoped to this path).
import { authenticateSession } from '../../auth.js';
import type { App, HttpDeps } from '../../context.js';
import { hide, limitConsent, open, uidParams } from './limits.js';

export default function interactionDetails(app: App, deps: HttpDeps) {
  app.get('/oauth/interaction/:uid/details', { schema: { ...hide, params: uidParams }, config: open }, async (req, reply) => {
    await limitConsent(deps, req);
    const view = await deps.oauth.interaction(req.raw, reply.raw, req.params.uid);
    const signedIn = await authenticateSession(req, deps);
    return {
      ...view,
      account: signedIn && req.account ? { id: req.account.id, name: req.account.companyName } : null,
    };
  });
}

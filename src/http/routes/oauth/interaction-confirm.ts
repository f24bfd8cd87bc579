// POST /oauth/interaction/{uid}/confirm: the signed-in user grants the client access.
import { type App, type HttpDeps, userOf } from '../../context.js';
import { anyBody, hide, uidParams } from './limits.js';

export default function interactionConfirm(app: App, deps: HttpDeps) {
  app.post(
    '/oauth/interaction/:uid/confirm',
    { schema: { ...hide, params: uidParams, body: anyBody }, config: { auth: 'session' } },
    async (req, reply) => ({ redirect_to: await deps.oauth.confirm(req.raw, reply.raw, req.params.uid, userOf(req).id) }),
  );
}

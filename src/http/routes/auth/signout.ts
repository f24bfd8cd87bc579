// POST /auth/signout: the session ends and its cookie is cleared.
import { SESSION_COOKIE } from '../../auth.js';
import type { App, HttpDeps } from '../../context.js';
import { hide } from './session.js';

export default function signOut(app: App, deps: HttpDeps) {
  app.post('/auth/signout', { schema: hide, config: { auth: 'session' } }, async (req, reply) => {
    await deps.users.signOut(req.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });
}

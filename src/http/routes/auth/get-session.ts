// GET /auth/session: the signed-in user, their account and the session's CSRF token.
import { type App, type HttpDeps, userOf } from '../../context.js';
import { hide, sessionView } from './session.js';

export default function getSession(app: App, deps: HttpDeps) {
  app.get('/auth/session', { schema: hide, config: { auth: 'session' } }, async (req) =>
    sessionView(deps, { user: userOf(req), account: req.account!, csrfToken: req.csrfToken! }),
  );
}

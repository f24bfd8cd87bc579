// GET /auth/tokens/{token}: what a one-time link (invitation, password reset) is for, before it is used.
import type { App, HttpDeps } from '../../context.js';
import { hide, tokenParams } from './session.js';

export default function getLink(app: App, deps: HttpDeps) {
  app.get('/auth/tokens/:token', { schema: { ...hide, params: tokenParams }, config: { auth: 'none' } }, async (req) =>
    deps.users.describeLink(req.params.token),
  );
}

// POST /auth/verification/{token}: the address is confirmed by the e-mailed link.
import type { App, HttpDeps } from '../../context.js';
import { hide, tokenParams } from './session.js';

export default function verifyEmail(app: App, deps: HttpDeps) {
  app.post('/auth/verification/:token', { schema: { ...hide, params: tokenParams }, config: { auth: 'none' } }, async (req) => ({
    verified: true,
    ...(await deps.users.verifyEmail(req.params.token)),
  }));
}

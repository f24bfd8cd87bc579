// POST /auth/signin: e-mail and password for a session.
import { addressKey } from '../../../lib/client-address.js';
import type { App, HttpDeps } from '../../context.js';
import { anyBody, hide, signedIn } from './session.js';

export default function signIn(app: App, deps: HttpDeps) {
  app.post('/auth/signin', { schema: { ...hide, body: anyBody }, config: { auth: 'none' } }, async (req, reply) =>
    signedIn(deps, reply, await deps.users.signIn(req.body ?? {}, addressKey(req.ip))),
  );
}

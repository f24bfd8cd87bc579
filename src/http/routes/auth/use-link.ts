// POST /auth/tokens/{token}: a one-time link used (a password set), signed in.
import { addressKey } from '../../../lib/client-address.js';
import type { App, HttpDeps } from '../../context.js';
import { anyBody, hide, signedIn, tokenParams } from './session.js';

export default function useLink(app: App, deps: HttpDeps) {
  app.post(
    '/auth/tokens/:token',
    { schema: { ...hide, params: tokenParams, body: anyBody }, config: { auth: 'none' } },
    async (req, reply) => signedIn(deps, reply, await deps.users.useLink(req.params.token, req.body ?? {}, addressKey(req.ip))),
  );
}

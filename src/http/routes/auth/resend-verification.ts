// POST /auth/verification: asks for a new confirmation link; 202 whether or not the address has an unconfirmed sign-up.
import { addressKey } from '../../../lib/client-address.js';
import type { App, HttpDeps } from '../../context.js';
import { anyBody, hide } from './session.js';

export default function resendVerification(app: App, deps: HttpDeps) {
  app.post('/auth/verification', { schema: { ...hide, body: anyBody }, config: { auth: 'none' } }, async (req, reply) => {
    await deps.users.resendVerification(req.body ?? {}, addressKey(req.ip));
    return reply.code(202).send({ sent: true });
  });
}

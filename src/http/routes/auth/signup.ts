// POST /auth/signup: a new account and its owner. 201 either way: with a session (no SMTP), or without one and
// `verification_required` (the confirmation link was e-mailed).
import { addressKey } from '../../../lib/client-address.js';
import type { App, HttpDeps } from '../../context.js';
import { anyBody, hide, signedIn } from './session.js';

export default function signUp(app: App, deps: HttpDeps) {
  app.post('/auth/signup', { schema: { ...hide, body: anyBody }, config: { auth: 'none' } }, async (req, reply) => {
    const made = await deps.users.signUp(req.body ?? {}, addressKey(req.ip));
    if ('signedIn' in made) return signedIn(deps, reply, made.signedIn, 201);
    return reply.code(201).send({ verification_required: true, ...made.verification });
  });
}

// POST /auth/invites: a one-time link that makes a new user of the account.
import { type App, type HttpDeps, userOf } from '../../context.js';
import { anyBody, hide } from './session.js';

export default function invite(app: App, deps: HttpDeps) {
  app.post('/auth/invites', { schema: { ...hide, body: anyBody }, config: { auth: 'session' } }, async (req, reply) =>
    reply.code(201).send(await deps.users.invite(userOf(req), req.body ?? {})),
  );
}

// POST /auth/members/{id}/reset: a one-time link that sets a member's password.
import { type App, type HttpDeps, userOf } from '../../context.js';
import { hide, memberParams } from './session.js';

export default function resetMember(app: App, deps: HttpDeps) {
  app.post('/auth/members/:id/reset', { schema: { ...hide, params: memberParams }, config: { auth: 'session' } }, async (req, reply) =>
    reply.code(201).send(await deps.users.resetLinkFor(userOf(req), req.params.id)),
  );
}

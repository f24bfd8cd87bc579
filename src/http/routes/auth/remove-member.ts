// DELETE /auth/members/{id}: a user leaves the account.
import { type App, type HttpDeps, userOf } from '../../context.js';
import { hide, memberParams } from './session.js';

export default function removeMember(app: App, deps: HttpDeps) {
  app.delete('/auth/members/:id', { schema: { ...hide, params: memberParams }, config: { auth: 'session' } }, async (req, reply) => {
    await deps.users.remove(userOf(req), req.params.id);
    return reply.code(204).send();
  });
}

// GET /auth/members: the users of the signed-in account.
import type { App, HttpDeps } from '../../context.js';
import { isoSeconds } from '../../../lib/dates.js';
import { hide } from './session.js';

export default function listMembers(app: App, deps: HttpDeps) {
  app.get('/auth/members', { schema: hide, config: { auth: 'session' } }, async (req) => ({
    data: (await deps.users.members(req.account!.id)).map((u) => ({
      id: u.id,
      email: u.email,
      role: u.role,
      created_at: isoSeconds(u.created_at),
      last_sign_in_at: isoSeconds(u.last_sign_in_at),
    })),
  }));
}

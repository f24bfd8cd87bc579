// POST /admin/password_resets: a one-time link to set a user's password.
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { described } from '../../schemas.js';
import { admin, adminErrors } from './render.js';

const issuedLink = z.strictObject({
  url: z.string().meta({ description: 'The one-time link (24 hours)' }),
  emailed: z.boolean().meta({ description: 'Whether it was e-mailed to the user too' }),
});

export default function passwordReset(app: App, deps: HttpDeps) {
  app.post(
    '/admin/password_resets',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: "A one-time link to set a user's password",
        description:
          'Plain JSON `{"email": …}` → 201 `{"url": …, "emailed": bool}`: a link, valid 24 hours, to the web app page that sets a new password (also e-mailed to the user when TIDEMARK_SMTP_URL is set).',
        body: z.object({ email: z.string().min(1) }).strict(),
        // 404: no user has that address.
        response: { 201: described(issuedLink, 'The link (plain JSON)'), ...adminErrors(404, 415, 422) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.users.resetLinkForEmail(req.body.email)),
  );
}

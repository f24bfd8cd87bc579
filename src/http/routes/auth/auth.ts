// The web app's sign-up, sign-in, e-mail confirmation, session, one-time links and team management (plain JSON;
// errors in the JSON:API errors form). Sessions are an http-only, same-site cookie; writes need the session's CSRF
// token. Client addresses (req.ip) are the X-Forwarded-For client only behind a trusted proxy (app.ts); limits count
// an IPv6 client by its /64 (lib/client-address.ts).
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { addressKey } from '../../../lib/client-address.js';
import type { SignedIn, SessionView } from '../../../services/users.js';
import { SESSION_TTL_MS } from '../../../services/users.js';
import { SESSION_COOKIE } from '../../auth.js';
import { type App, type HttpDeps, userOf } from '../../context.js';
import { isoSeconds } from '../../../render/jsonapi.js';

const anyBody = z.record(z.string(), z.unknown()).optional();
const hide = { hide: true } as const;

export default function authRoutes(app: App, deps: HttpDeps) {
  const secure = () => deps.config.publicUrl.startsWith('https://');
  const view = (s: SessionView | SignedIn) => ({
    user: { id: s.user.id, email: s.user.email, role: s.user.role },
    account: { id: s.account.id, name: s.account.companyName, plan: s.account.plan, features: s.account.features },
    csrf_token: s.csrfToken,
    sandbox: deps.sandbox !== null,
  });
  const signedIn = (reply: FastifyReply, s: SignedIn, status = 200) => {
    reply.setCookie(SESSION_COOKIE, s.sessionToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure: secure(),
      path: '/',
      maxAge: Math.floor(SESSION_TTL_MS / 1000),
    });
    return reply.code(status).send(view(s));
  };

  app.get('/auth/config', { schema: hide, config: { auth: 'none' } }, async () => ({
    signup_enabled: deps.users.signupEnabled,
    email_verification: deps.users.verifiesEmail,
    sandbox: deps.sandbox !== null,
  }));

  app.get('/auth/session', { schema: hide, config: { auth: 'session' } }, async (req) => {
    return view({ user: userOf(req), account: req.account!, csrfToken: req.csrfToken! });
  });

  // 201 either way: with a session (no SMTP), or without one and `verification_required` (the link was e-mailed).
  app.post('/auth/signup', { schema: { ...hide, body: anyBody }, config: { auth: 'none' } }, async (req, reply) => {
    const made = await deps.users.signUp(req.body ?? {}, addressKey(req.ip));
    if ('signedIn' in made) return signedIn(reply, made.signedIn, 201);
    return reply.code(201).send({ verification_required: true, ...made.verification });
  });

  /** Asks for a new confirmation link; 202 whether or not the address has an unconfirmed sign-up. */
  app.post('/auth/verification', { schema: { ...hide, body: anyBody }, config: { auth: 'none' } }, async (req, reply) => {
    await deps.users.resendVerification(req.body ?? {}, addressKey(req.ip));
    return reply.code(202).send({ sent: true });
  });

  app.post('/auth/verification/:token', { schema: hide, config: { auth: 'none' } }, async (req) => {
    const { token } = req.params as { token: string };
    return { verified: true, ...(await deps.users.verifyEmail(token)) };
  });

  app.post('/auth/signin', { schema: { ...hide, body: anyBody }, config: { auth: 'none' } }, async (req, reply) =>
    signedIn(reply, await deps.users.signIn(req.body ?? {}, addressKey(req.ip))),
  );

  app.post('/auth/signout', { schema: hide, config: { auth: 'session' } }, async (req, reply) => {
    await deps.users.signOut(req.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  app.get('/auth/tokens/:token', { schema: hide, config: { auth: 'none' } }, async (req) => {
    const { token } = req.params as { token: string };
    return deps.users.describeLink(token);
  });

  app.post('/auth/tokens/:token', { schema: { ...hide, body: anyBody }, config: { auth: 'none' } }, async (req, reply) => {
    const { token } = req.params as { token: string };
    return signedIn(reply, await deps.users.useLink(token, req.body ?? {}, addressKey(req.ip)));
  });

  app.get('/auth/members', { schema: hide, config: { auth: 'session' } }, async (req) => ({
    data: (await deps.users.members(req.account!.id)).map((u) => ({
      id: u.id,
      email: u.email,
      role: u.role,
      created_at: isoSeconds(u.created_at),
      last_sign_in_at: isoSeconds(u.last_sign_in_at),
    })),
  }));

  app.post('/auth/invites', { schema: { ...hide, body: anyBody }, config: { auth: 'session' } }, async (req, reply) =>
    reply.code(201).send(await deps.users.invite(userOf(req), req.body ?? {})),
  );

  app.delete('/auth/members/:id', { schema: hide, config: { auth: 'session' } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    await deps.users.remove(userOf(req), id);
    return reply.code(204).send();
  });

  app.post('/auth/members/:id/reset', { schema: hide, config: { auth: 'session' } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    return reply.code(201).send(await deps.users.resetLinkFor(userOf(req), id));
  });
}

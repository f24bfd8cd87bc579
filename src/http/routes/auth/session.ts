// What the web app's auth routes share: the session view they answer with, and setting the session cookie.
// Sessions are an http-only, same-site cookie; writes need the session's CSRF token. Client addresses (req.ip)
// are the X-Forwarded-For client only behind a trusted proxy (app.ts); limits count an IPv6 client by its /64
// (lib/client-address.ts).
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { SignedIn, SessionView } from '../../../services/users.js';
import { SESSION_TTL_MS } from '../../../services/users.js';
import { SESSION_COOKIE } from '../../auth.js';
import type { HttpDeps } from '../../context.js';

/** Plain JSON bodies whose fields the user service checks (errors in the JSON:API errors form). */
export const anyBody = z.record(z.string(), z.unknown()).optional();
export const hide = { hide: true } as const;
export const tokenParams = z.object({ token: z.string() });
export const memberParams = z.object({ id: z.string() });

export function sessionView(deps: HttpDeps, s: SessionView | SignedIn) {
  return {
    user: { id: s.user.id, email: s.user.email, role: s.user.role },
    account: { id: s.account.id, name: s.account.companyName, plan: s.account.plan, features: s.account.features },
    csrf_token: s.csrfToken,
    sandbox: deps.sandbox !== null,
  };
}

/** Sets the session cookie of a sign-in and answers with the session. */
export function signedIn(deps: HttpDeps, reply: FastifyReply, s: SignedIn, status = 200) {
  reply.setCookie(SESSION_COOKIE, s.sessionToken, {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https://'),
    path: '/',
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
  return reply.code(status).send(sessionView(deps, s));
}

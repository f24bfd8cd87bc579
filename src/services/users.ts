// People and their sessions: sign-up (rate-limited; e-mail verified when SMTP is configured), sign-in (throttled
// per address and per account), sessions for the web app and /v2, one-time links (owner setup at first start,
// invitations, password resets), members of an account. Passwords are scrypt hashes; session and link tokens are
// random and stored as SHA-256 digests.
import { randomBytes } from 'node:crypto';
import type { Account, Plan } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import { type ErrorItem, notFound, TidemarkError, validationFailed } from '../domain/errors.js';
import { isUuid, newId } from '../lib/ids.js';
import { hashPassword, verifyPassword } from '../lib/passwords.js';
import { matchesDigest, randomToken, sha256 } from '../lib/secrets.js';
import { type Db, isUniqueViolation, type Queryable } from '../storage/db.js';
import { findAccountById } from '../storage/repositories/accounts.js';
import * as repo from '../storage/repositories/users.js';
import type { Logger } from 'pino';
import type { AccountService } from './accounts.js';
import type { Mailer } from './mailer.js';
import type { RateLimitService } from './rate-limits.js';

export type { OneTimeKind, Role, UserRow } from '../storage/repositories/users.js';

export const SESSION_TTL_MS = 14 * 24 * 3600_000;
const LINK_TTL_MS: Record<repo.OneTimeKind, number> = {
  owner_setup: 7 * 24 * 3600_000,
  invite: 7 * 24 * 3600_000,
  password_reset: 24 * 3600_000,
};
/** Sign-in attempts a minute per client address, whatever the account (each costs a password hash). */
export const SIGNIN_LIMIT_PER_MINUTE = 10;
/** Wrong passwords for one account from one client address, per quarter hour (then that address waits). */
export const SIGNIN_FAILURES_PER_ADDRESS = 5;
export const SIGNIN_FAILURE_WINDOW_MS = 15 * 60_000;
/**
 * Wrong passwords for one account from all addresses an hour (`signinFailuresPerAccountPerHour`): past it the
 * account is under attack, and only addresses it was signed in to successfully within KNOWN_ADDRESS_MS may still
 * try (each within its own limit).
 */
export const SIGNIN_ACCOUNT_WINDOW_MS = 3600_000;
export const KNOWN_ADDRESS_MS = 30 * 24 * 3600_000;
const HOUR_MS = 3600_000;

/** Rolling-hour limits (TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS, TIDEMARK_SIGNUP_LIMIT_TOTAL, TIDEMARK_SIGNIN_ACCOUNT_FAILURES). */
export interface AuthLimits {
  signupPerAddressPerHour: number;
  signupPerHour: number;
  signinFailuresPerAccountPerHour: number;
}
export const AUTH_LIMITS: AuthLimits = { signupPerAddressPerHour: 5, signupPerHour: 100, signinFailuresPerAccountPerHour: 20 };
/** How long an e-mail confirmation link works. */
export const VERIFICATION_TTL_MS = 24 * 3600_000;
/** A sign-up never confirmed is removed this long after it was made (its links lived a day). */
export const UNCONFIRMED_SIGN_UP_MS = 7 * 24 * 3600_000;
/** New confirmation links an hour, per e-mail address and per client address. */
export const RESEND_PER_EMAIL = 3;
export const RESEND_PER_ADDRESS = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MIN_PASSWORD = 10;

export interface SignedIn {
  user: repo.UserRow;
  account: Account;
  csrfToken: string;
  /** The session cookie's value (set it; never shown). */
  sessionToken: string;
}

export interface SessionView {
  user: repo.UserRow;
  account: Account;
  csrfToken: string;
}

export interface UserServiceOptions {
  db: Db;
  wall: Clock;
  accounts: AccountService;
  rateLimits: Pick<RateLimitService, 'takeKeyed' | 'reserve' | 'clear'>;
  signupEnabled: boolean;
  /** Sign-up and sign-in limits (default AUTH_LIMITS). */
  limits?: AuthLimits;
  defaultPlan: Plan;
  publicUrl: string;
  /**
   * Sends invitation and reset links by e-mail when SMTP is configured; with one, self-serve sign-ups must confirm
   * their e-mail address before they can sign in.
   */
  mailer?: Mailer | null;
  logger?: Logger;
}

/** What a sign-up gives: a session, or (SMTP configured) a confirmation link sent to the address. */
export type SignUpResult = { signedIn: SignedIn } | { verification: { email: string; emailed: boolean } };

/** A link to hand over, and whether it also went out by e-mail. */
export interface IssuedLink {
  url: string;
  emailed: boolean;
}

const NO_DIGEST = Buffer.alloc(32);

/** A hash to verify against when there is no such user, so that a wrong e-mail costs what a wrong password does. */
let decoyHash: Promise<string> | null = null;

export class UserService {
  constructor(private readonly o: UserServiceOptions) {}

  get signupEnabled(): boolean {
    return this.o.signupEnabled;
  }

  /** Whether sign-ups must confirm their e-mail address (SMTP is configured). */
  get verifiesEmail(): boolean {
    return Boolean(this.o.mailer);
  }

  /**
   * A new account with its owner: signed in at once, or, when SMTP is configured, sent a confirmation link and
   * unable to sign in until it is used. Limited per client address and in all (valid requests only: a refused one
   * costs no password hash). An unconfirmed sign-up older than the link's life gives way to a new one of its address.
   */
  async signUp(input: { email?: unknown; password?: unknown; company_name?: unknown }, clientAddress: string): Promise<SignUpResult> {
    if (!this.o.signupEnabled) {
      throw new TidemarkError('forbidden', 'Sign-up is turned off on this installation', {
        items: [{ title: 'Forbidden', detail: 'Sign-up is turned off on this installation; ask an owner for an invitation' }],
      });
    }
    const problems: ErrorItem[] = [];
    const email = this.#email(input.email, problems);
    const password = this.#password(input.password, problems);
    const company = typeof input.company_name === 'string' ? input.company_name.trim() : '';
    if (!company) problems.push({ pointer: '/company_name', detail: "Company name can't be blank", code: 'blank' });
    else if (company.length > 255)
      problems.push({ pointer: '/company_name', detail: 'Company name is too long (maximum is 255 characters)', code: 'too_long' });
    if (problems.length) throw validationFailed(problems);
    const limits = this.o.limits ?? AUTH_LIMITS;
    await this.#limit(
      `signup:ip:${clientAddress}`,
      limits.signupPerAddressPerHour,
      HOUR_MS,
      'Too many sign-ups from your address; try again later',
    );
    await this.#limit('signup:all', limits.signupPerHour, HOUR_MS, 'Too many sign-ups on this installation right now; try again later');
    const hash = await hashPassword(password!);
    const now = this.o.wall.now();
    const verify = this.verifiesEmail;
    const made = await this.#guardEmail(() =>
      this.o.db.transaction(async (tx) => {
        const existing = await repo.findUserByEmail(tx, email!);
        if (existing) {
          const stale = existing.email_verified_at === null && now.getTime() - existing.created_at.getTime() >= VERIFICATION_TTL_MS;
          if (!stale) throw taken();
          await repo.deleteUnverifiedSignUp(tx, existing.id);
        }
        const account = await this.o.accounts.create(tx, {
          name: `web-${randomBytes(6).toString('hex')}`,
          companyName: company,
          plan: this.o.defaultPlan,
        });
        const user = await repo.insertUser(tx, {
          id: newId(),
          account_id: account.id,
          email: email!,
          password_hash: hash,
          role: 'owner',
          created_at: now,
          updated_at: now,
          email_verified_at: verify ? null : now,
        });
        if (verify) return { kind: 'verify' as const, user, link: await this.#issueVerification(tx, user.id) };
        return { kind: 'session' as const, signedIn: await this.#startSession(tx, user, account, clientAddress) };
      }),
    );
    if (made.kind === 'session') return { signedIn: made.signedIn };
    const sent = await this.#verificationMail(made.user.email, made.link);
    return { verification: { email: made.user.email, emailed: sent.emailed } };
  }

  /**
   * Signs in; 401 for a wrong e-mail or password alike; 403 for a sign-up whose e-mail is not confirmed yet; 429
   * past the limits. Throttling (docs/web.md, "Sign-in throttling"): attempts per client address a minute; wrong
   * passwords per (account, address) a quarter hour; and wrong passwords per account an hour, past which only
   * addresses the account was signed in from before may try — so a stranger's guesses never lock the owner out.
   */
  async signIn(input: { email?: unknown; password?: unknown }, clientAddress: string): Promise<SignedIn> {
    const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
    const password = typeof input.password === 'string' ? input.password : '';
    await this.#limit(
      `signin:ip:${clientAddress}`,
      SIGNIN_LIMIT_PER_MINUTE,
      undefined,
      'Too many sign-in attempts; wait a minute and try again',
    );
    const pairKey = `signin:fail:${email}:${clientAddress}`;
    const accountKey = `signin:fail:${email}`;
    // Each attempt holds a failure slot of its own until its password is judged, and gives it back if it was right.
    const pair = await this.o.rateLimits.reserve(pairKey, SIGNIN_FAILURES_PER_ADDRESS, SIGNIN_FAILURE_WINDOW_MS);
    if (!pair.allowed) throw rateLimited(pair.retryAfterSeconds, 'Too many wrong passwords for this account; wait a while and try again');
    const user = email ? await repo.findUserByEmail(this.o.db, email) : undefined;
    const perAccount = (this.o.limits ?? AUTH_LIMITS).signinFailuresPerAccountPerHour;
    const whole = await this.o.rateLimits.reserve(accountKey, perAccount, SIGNIN_ACCOUNT_WINDOW_MS);
    if (!whole.allowed) {
      const since = new Date(this.o.wall.now().getTime() - KNOWN_ADDRESS_MS);
      const known = user ? await repo.signedInFrom(this.o.db, user.id, clientAddress, since) : false;
      if (!known) {
        // Not judged, so not a failure of this address.
        await pair.refund();
        throw rateLimited(
          whole.retryAfterSeconds,
          'Too many failed sign-ins for this account recently; for now it can be signed in to only from a network it was used from before. Try again later',
        );
      }
    }
    decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
    const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash));
    if (!user || !ok) {
      const detail = 'Wrong e-mail address or password';
      throw new TidemarkError('unauthorized', detail, { items: [{ title: 'Unauthorized', detail }] });
    }
    // The right password: not a failure, whatever follows.
    await whole.refund();
    if (user.email_verified_at === null) {
      await pair.refund();
      // Only who knows the password learns that the address is unconfirmed.
      const detail = `Confirm your e-mail address first: open the link we sent to ${user.email} (it works for 24 hours). No e-mail? Look in your spam folder, or ask for a new link (POST /auth/verification with your e-mail address; the sign-in page has a button).`;
      throw new TidemarkError('forbidden', detail, {
        items: [{ title: 'E-mail address not confirmed', detail, code: 'email_unverified' }],
      });
    }
    const account = await findAccountById(this.o.db, user.account_id);
    if (!account) throw new TidemarkError('unauthorized', 'Wrong e-mail address or password');
    await this.o.rateLimits.clear(pairKey, SIGNIN_FAILURE_WINDOW_MS);
    return this.o.db.transaction((tx) => this.#startSession(tx, user, account, clientAddress));
  }

  /**
   * Confirms a sign-up's e-mail address with the link's token (`<id>.<secret>`): once, within 24 hours; the
   * secret is compared in constant time with its stored digest. The user then signs in as usual.
   */
  async verifyEmail(token: string): Promise<{ email: string }> {
    const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{16,128})$/.exec(token);
    return this.o.db.transaction(async (tx) => {
      const now = this.o.wall.now();
      const row = m ? await repo.findEmailVerificationForUpdate(tx, m[1]!) : undefined;
      // Compared even when no row was found, so that a wrong id costs what a wrong secret does.
      const matches = matchesDigest(m?.[2] ?? token, row?.secret_sha256 ?? NO_DIGEST) && row !== undefined;
      if (!row || !matches || row.used_at !== null || row.expires_at.getTime() <= now.getTime()) {
        const detail =
          'This confirmation link does not work: it was already used, has expired (links work for 24 hours) or is incomplete. Ask for a new one from the sign-in page.';
        throw new TidemarkError('not_found', detail, { items: [{ title: 'Not Found', detail, code: 'link_invalid' }] });
      }
      await repo.markEmailVerified(tx, row.user_id, now);
      await repo.endEmailVerifications(tx, row.user_id, now);
      const user = await repo.findUserById(tx, row.user_id);
      return { email: user?.email ?? '' };
    });
  }

  /**
   * Sends a new confirmation link (the old ones stop working) when `email` belongs to a sign-up not confirmed
   * yet. Says nothing about whether it does; limited per e-mail address and per client address an hour.
   */
  async resendVerification(input: { email?: unknown }, clientAddress: string): Promise<void> {
    if (!this.verifiesEmail) {
      const detail = 'E-mail addresses are not confirmed on this installation (no SMTP server is configured): sign in directly';
      throw new TidemarkError('not_found', detail, { items: [{ title: 'Not Found', detail }] });
    }
    const problems: ErrorItem[] = [];
    const email = this.#email(input.email, problems);
    if (problems.length) throw validationFailed(problems);
    const tooMany = 'Too many confirmation e-mails asked for; try again later';
    await this.#limit(`verify:ip:${clientAddress}`, RESEND_PER_ADDRESS, HOUR_MS, tooMany);
    await this.#limit(`verify:email:${email}`, RESEND_PER_EMAIL, HOUR_MS, tooMany);
    const user = await repo.findUserByEmail(this.o.db, email!);
    if (!user || user.email_verified_at !== null) return;
    const link = await this.o.db.transaction(async (tx) => {
      await repo.endEmailVerifications(tx, user.id, this.o.wall.now());
      return this.#issueVerification(tx, user.id);
    });
    await this.#verificationMail(user.email, link);
  }

  async #issueVerification(q: Queryable, userId: string): Promise<string> {
    const id = newId();
    const secret = randomToken('', 32);
    const now = this.o.wall.now();
    await repo.insertEmailVerification(q, {
      id,
      user_id: userId,
      secret_sha256: sha256(secret),
      created_at: now,
      expires_at: new Date(now.getTime() + VERIFICATION_TTL_MS),
    });
    return `${this.o.publicUrl}/verify/${id}.${secret}`;
  }

  #verificationMail(to: string, url: string): Promise<IssuedLink> {
    return this.#mail(to, url, 'Confirm your e-mail address for Tidemark', [
      'Someone (we hope you) created a Tidemark account with this e-mail address.',
      '',
      'Confirm it here (the link works once, for 24 hours), then sign in:',
      url,
      '',
      'If it was not you, ignore this e-mail: the account cannot be used without the link.',
    ]);
  }

  /** Counts one under `key` within `limit`, or answers 429 with Retry-After. */
  async #limit(key: string, limit: number, windowMs: number | undefined, detail: string): Promise<void> {
    const decision = await this.o.rateLimits.takeKeyed(key, limit, windowMs);
    if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds, detail);
  }

  /** The live session behind a cookie value, or null. */
  /** Maintenance: expired verification links, abandoned sign-ups, addresses that no longer count as known. */
  prune(): Promise<number> {
    const now = this.o.wall.now().getTime();
    return repo.pruneUserRecords(this.o.db, new Date(now), new Date(now - UNCONFIRMED_SIGN_UP_MS), new Date(now - KNOWN_ADDRESS_MS));
  }

  async session(token: string | undefined): Promise<SessionView | null> {
    if (!token) return null;
    const found = await repo.findSession(this.o.db, sha256(token), this.o.wall.now());
    if (!found) return null;
    const account = await findAccountById(this.o.db, found.user.account_id);
    if (!account) return null;
    return { user: found.user, account, csrfToken: found.session.csrf_token };
  }

  /** A user and their account by the user's id (an OAuth grant names its user); null once the user is removed. */
  async member(userId: string): Promise<{ user: repo.UserRow; account: Account } | null> {
    if (!isUuid(userId)) return null;
    const user = await repo.findUserById(this.o.db, userId);
    const account = user ? await findAccountById(this.o.db, user.account_id) : undefined;
    return user && account ? { user, account } : null;
  }

  async signOut(token: string | undefined): Promise<void> {
    if (token) await repo.deleteSession(this.o.db, sha256(token));
  }

  /** A one-time link (owner setup, invitation, password reset), as the URL to hand over. */
  async issueLink(
    q: Queryable,
    kind: repo.OneTimeKind,
    target: { accountId: string; userId?: string | null; email?: string | null; role?: repo.Role | null },
  ): Promise<string> {
    return linkUrl(this.o.publicUrl, await this.issueToken(q, kind, target));
  }

  /** The token of a new one-time link (first start prints its URL once the public address is known). */
  async issueToken(
    q: Queryable,
    kind: repo.OneTimeKind,
    target: { accountId: string; userId?: string | null; email?: string | null; role?: repo.Role | null },
  ): Promise<string> {
    const token = randomToken('', 32);
    const now = this.o.wall.now();
    await repo.insertOneTimeToken(q, {
      id: newId(),
      token_sha256: sha256(token),
      kind,
      account_id: target.accountId,
      user_id: target.userId ?? null,
      email: target.email ?? null,
      role: target.role ?? null,
      created_at: now,
      expires_at: new Date(now.getTime() + LINK_TTL_MS[kind]),
    });
    return token;
  }

  /** What a link is for (the page shows it before asking for a password); not found when used or expired. */
  async describeLink(token: string): Promise<{ kind: repo.OneTimeKind; email: string | null; account_name: string }> {
    const link = await repo.findOneTimeToken(this.o.db, sha256(token), this.o.wall.now());
    if (!link) throw notFound('link');
    const account = await findAccountById(this.o.db, link.account_id);
    return { kind: link.kind, email: link.email, account_name: account?.companyName ?? '' };
  }

  /**
   * Uses a link once: owner setup and invitations create the user (with the link's e-mail, or the one given),
   * a reset sets a new password and ends the user's other sessions. Signs the user in.
   */
  async useLink(token: string, input: { email?: unknown; password?: unknown }, clientAddress?: string): Promise<SignedIn> {
    const problems: ErrorItem[] = [];
    const password = this.#password(input.password, problems);
    const described = await this.describeLink(token);
    const email = described.email ?? this.#email(input.email, problems);
    if (problems.length) throw validationFailed(problems);
    const hash = await hashPassword(password!);
    return this.#guardEmail(() =>
      this.o.db.transaction(async (tx) => {
        const now = this.o.wall.now();
        const link = await repo.findOneTimeToken(tx, sha256(token), now, true);
        if (!link) throw notFound('link');
        const account = await findAccountById(tx, link.account_id);
        if (!account) throw notFound('link');
        await repo.useOneTimeToken(tx, link.id, now);
        let user: repo.UserRow | undefined;
        if (link.kind === 'password_reset') {
          user = link.user_id ? await repo.findUser(tx, link.account_id, link.user_id) : undefined;
          if (!user) throw notFound('link');
          await repo.setPassword(tx, user.id, hash, now);
          // The link signs in: it came from the operator or an owner (by e-mail when SMTP is configured), so it
          // vouches for the address as an invitation does.
          await repo.markEmailVerified(tx, user.id, now);
          await repo.deleteSessionsOf(tx, user.id);
        } else {
          if (await repo.findUserByEmail(tx, email!)) throw taken();
          user = await repo.insertUser(tx, {
            id: newId(),
            account_id: link.account_id,
            email: email!,
            password_hash: hash,
            role: link.kind === 'owner_setup' ? 'owner' : (link.role ?? 'member'),
            created_at: now,
            updated_at: now,
          });
        }
        return this.#startSession(tx, user, account, clientAddress);
      }),
    );
  }

  members(accountId: string): Promise<repo.UserRow[]> {
    return repo.listUsers(this.o.db, accountId);
  }

  /** An owner invites someone: the link to hand over (e-mailed too when SMTP is configured). */
  async invite(owner: repo.UserRow, input: { email?: unknown; role?: unknown }): Promise<IssuedLink> {
    requireOwner(owner);
    const problems: ErrorItem[] = [];
    const email = this.#email(input.email, problems);
    const role = input.role === undefined || input.role === null ? 'member' : input.role;
    if (role !== 'owner' && role !== 'member')
      problems.push({ pointer: '/role', detail: 'role must be owner or member', code: 'inclusion' });
    if (email && (await repo.findUserByEmail(this.o.db, email)))
      problems.push({ pointer: '/email', detail: 'This e-mail address already has a user', code: 'taken' });
    if (problems.length) throw validationFailed(problems);
    const url = await this.issueLink(this.o.db, 'invite', { accountId: owner.account_id, email: email!, role: role as repo.Role });
    const account = await findAccountById(this.o.db, owner.account_id);
    return this.#mail(email!, url, `You are invited to ${account?.companyName ?? 'an account'} on Tidemark`, [
      `${owner.email} invites you to ${account?.companyName ?? 'their account'} on Tidemark.`,
      '',
      `Choose your password here (the link works once, for 7 days):`,
      url,
    ]);
  }

  async #mail(to: string, url: string, subject: string, lines: string[]): Promise<IssuedLink> {
    if (!this.o.mailer) return { url, emailed: false };
    try {
      await this.o.mailer.send({ to, subject, text: lines.join('\n') });
      return { url, emailed: true };
    } catch (err) {
      // The link still works: whoever asked for it can hand it over.
      this.o.logger?.warn({ err, to }, 'could not send an e-mail');
      return { url, emailed: false };
    }
  }

  async #resetMail(user: repo.UserRow, url: string): Promise<IssuedLink> {
    return this.#mail(user.email, url, 'Set your Tidemark password', [
      'Someone with access to your Tidemark account asked for a new password for you.',
      '',
      'Set it here (the link works once, for 24 hours):',
      url,
      '',
      'Nothing changes until the link is used.',
    ]);
  }

  /** An owner removes a member (never the last owner). */
  async remove(owner: repo.UserRow, userId: string): Promise<void> {
    requireOwner(owner);
    if (!isUuid(userId)) throw notFound('user');
    await this.o.db.transaction(async (tx) => {
      const user = await repo.findUser(tx, owner.account_id, userId);
      if (!user) throw notFound('user');
      if (user.role === 'owner' && (await repo.countOwners(tx, owner.account_id)) <= 1) {
        throw validationFailed([{ pointer: '/id', detail: 'The last owner of an account cannot be removed', code: 'last_owner' }]);
      }
      await repo.deleteUser(tx, owner.account_id, userId);
    });
  }

  /** A password-reset link for a user of the owner's account (e-mailed too when SMTP is configured). */
  async resetLinkFor(owner: repo.UserRow, userId: string): Promise<IssuedLink> {
    requireOwner(owner);
    if (!isUuid(userId)) throw notFound('user');
    const user = await repo.findUser(this.o.db, owner.account_id, userId);
    if (!user) throw notFound('user');
    return this.#resetMail(
      user,
      await this.issueLink(this.o.db, 'password_reset', { accountId: user.account_id, userId: user.id, email: user.email }),
    );
  }

  /** The admin API's password reset: by e-mail address, whatever the account. */
  async resetLinkForEmail(email: string): Promise<IssuedLink> {
    const user = await repo.findUserByEmail(this.o.db, email.trim());
    if (!user) throw notFound('user');
    return this.#resetMail(
      user,
      await this.issueLink(this.o.db, 'password_reset', { accountId: user.account_id, userId: user.id, email: user.email }),
    );
  }

  async #startSession(q: Queryable, user: repo.UserRow, account: Account, clientAddress?: string): Promise<SignedIn> {
    const sessionToken = randomToken('', 32);
    const csrfToken = randomToken('', 24);
    const now = this.o.wall.now();
    // Signing up and using a link sign the user in too.
    await repo.noteSignIn(q, user.id, now);
    if (clientAddress) await repo.noteSignInAddress(q, user.id, clientAddress, now);
    await repo.insertSession(q, {
      id: newId(),
      token_sha256: sha256(sessionToken),
      user_id: user.id,
      csrf_token: csrfToken,
      created_at: now,
      expires_at: new Date(now.getTime() + SESSION_TTL_MS),
    });
    return { user, account, csrfToken, sessionToken };
  }

  /** Two sign-ups of one address at once: the unique index decides, the loser gets the same 422. */
  async #guardEmail<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err, repo.USER_EMAIL_CONSTRAINT)) throw taken();
      throw err;
    }
  }

  #email(value: unknown, problems: ErrorItem[]): string | undefined {
    const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
    if (!email) problems.push({ pointer: '/email', detail: "E-mail can't be blank", code: 'blank' });
    else if (!EMAIL.test(email) || email.length > 254)
      problems.push({ pointer: '/email', detail: 'E-mail is not an address', code: 'invalid' });
    else return email;
    return undefined;
  }

  #password(value: unknown, problems: ErrorItem[]): string | undefined {
    const password = typeof value === 'string' ? value : '';
    if (password.length < MIN_PASSWORD)
      problems.push({ pointer: '/password', detail: `Password must be at least ${MIN_PASSWORD} characters`, code: 'too_short' });
    else if (password.length > 256)
      problems.push({ pointer: '/password', detail: 'Password must be at most 256 characters', code: 'too_long' });
    else return password;
    return undefined;
  }
}

/** Where a one-time link's token is used: the web app's setup page. */
export function linkUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/setup/${token}`;
}

function rateLimited(retryAfterSeconds: number, detail: string): TidemarkError {
  return new TidemarkError('rate_limited', detail, { retryAfterSeconds, items: [{ title: 'Too Many Requests', detail }] });
}

function taken() {
  return validationFailed([{ pointer: '/email', detail: 'This e-mail address already has a user', code: 'taken' }]);
}

function requireOwner(user: repo.UserRow): void {
  if (user.role !== 'owner') {
    throw new TidemarkError('forbidden', 'Only owners manage the team', {
      items: [{ title: 'Forbidden', detail: 'Only owners manage the team' }],
    });
  }
}

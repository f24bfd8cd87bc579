// Plans and the API trial: on the `free` plan, tracking requests are created at once, but READING tracking data
// through the API (keys, MCP) needs an API trial that the operator starts, extends or ends. The trial runs on the
// wall clock: it is about the service's own terms, not about containers, so the sandbox world clock never moves it.
import type { Plan } from './account.js';

/** Days an API trial lasts when the operator does not say otherwise. */
export const DEFAULT_TRIAL_DAYS = 7;
/** The longest a start or an extension may add at once. */
export const MAX_TRIAL_DAYS = 365;

const DAY_MS = 86_400_000;

/** An account's API trial: when the operator started it and when it ends (or ended). */
export interface ApiTrial {
  startedAt: Date;
  endsAt: Date;
}

/** What decides API read access; `gateOn` is the operator's setting (TIDEMARK_API_TRIAL, on by default). */
export interface ApiAccessInput {
  plan: Plan;
  trial: ApiTrial | null;
  /** The operator's own account, created at setup: never gated. */
  firstAccount: boolean;
  gateOn: boolean;
  /** Wall time. */
  now: Date;
}

/**
 * Why API reads are allowed (`plan`: unlimited; `first_account`: the operator's; `gate_off`: TIDEMARK_API_TRIAL=off;
 * `trial`: a trial runs) or refused (`no_trial`, `trial_ended`).
 */
export type ApiAccess =
  | { allowed: true; reason: 'plan' | 'first_account' | 'gate_off' | 'trial'; trialEndsAt: Date | null }
  | { allowed: false; reason: 'no_trial' | 'trial_ended'; trialEndsAt: Date | null };

/** How an account reads tracking data through the API, as the account resource and the operator API say it. */
export const API_ACCESS_STATES = ['enabled', 'trial', 'trial_required'] as const;
export type ApiAccessState = (typeof API_ACCESS_STATES)[number];

export function accessState(access: ApiAccess): ApiAccessState {
  if (!access.allowed) return 'trial_required';
  return access.reason === 'trial' ? 'trial' : 'enabled';
}

/** The JSON:API error `code` (and the MCP tool error's reason) of a refused read. */
export const API_TRIAL_REQUIRED = 'api_trial_required';

export function apiReadAccess(input: ApiAccessInput): ApiAccess {
  const trialEndsAt = input.trial?.endsAt ?? null;
  if (input.plan !== 'free') return { allowed: true, reason: 'plan', trialEndsAt };
  if (input.firstAccount) return { allowed: true, reason: 'first_account', trialEndsAt };
  if (!input.gateOn) return { allowed: true, reason: 'gate_off', trialEndsAt };
  if (!input.trial) return { allowed: false, reason: 'no_trial', trialEndsAt };
  if (input.now.getTime() < input.trial.endsAt.getTime()) return { allowed: true, reason: 'trial', trialEndsAt };
  return { allowed: false, reason: 'trial_ended', trialEndsAt };
}

/** An instant as the API writes it: ISO 8601 UTC to the second. */
const iso = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The one sentence a refused read answers with, on the REST API (the 403's detail) and in MCP tool errors alike: what
 * is refused, what still works, and what to do (and, when a trial ended, when).
 */
export function refusalSentence(access: Extract<ApiAccess, { allowed: false }>): string {
  const why =
    access.reason === 'trial_ended' && access.trialEndsAt
      ? `The API trial of this account ended at ${iso(access.trialEndsAt)}.`
      : 'This account is on the free plan and has no API trial.';
  return `${why} Reading tracking data through the API needs an API trial (${DEFAULT_TRIAL_DAYS} days) or the unlimited plan: ask the operator of this Tidemark to ${access.reason === 'trial_ended' ? 'extend the trial' : 'start one'} or to change the plan. Creating tracking requests, webhooks and the web app keep working meanwhile.`;
}

/** An operator's change to a trial. */
export type TrialChange = { action: 'start'; days: number } | { action: 'extend'; days: number } | { action: 'end' };

export type TrialChangeResult = { ok: true; trial: ApiTrial } | { ok: false; problem: string };

/**
 * The trial after the operator's change, or why the change makes no sense. Start: a new trial from now (refused while
 * one runs: extend it instead). Extend: a running trial ends `days` later; an ended one runs again for `days` from now.
 * End: a running trial ends now; an ended one stays as it is. Accounts whose reads are never gated get no trial.
 */
export function changeTrial(
  account: { plan: Plan; firstAccount: boolean; trial: ApiTrial | null },
  change: TrialChange,
  now: Date,
): TrialChangeResult {
  if (account.plan !== 'free') return { ok: false, problem: `the account is on the ${account.plan} plan, whose API reads are never gated` };
  if (account.firstAccount) return { ok: false, problem: "the operator's first account is never gated" };
  if (change.action !== 'end' && !(Number.isInteger(change.days) && change.days >= 1 && change.days <= MAX_TRIAL_DAYS)) {
    return { ok: false, problem: `days must be a whole number from 1 to ${MAX_TRIAL_DAYS}` };
  }
  const current = account.trial;
  const running = current !== null && now.getTime() < current.endsAt.getTime();
  switch (change.action) {
    case 'start':
      if (running) return { ok: false, problem: `a trial runs until ${iso(current.endsAt)}; extend it instead` };
      return { ok: true, trial: { startedAt: now, endsAt: new Date(now.getTime() + change.days * DAY_MS) } };
    case 'extend':
      if (!current) return { ok: false, problem: 'the account has no API trial to extend; start one' };
      return {
        ok: true,
        trial: { startedAt: current.startedAt, endsAt: new Date((running ? current.endsAt : now).getTime() + change.days * DAY_MS) },
      };
    case 'end':
      if (!current) return { ok: false, problem: 'the account has no API trial to end' };
      return { ok: true, trial: running ? { startedAt: current.startedAt, endsAt: now } : current };
  }
}

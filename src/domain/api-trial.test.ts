import { describe, expect, it } from 'vitest';
import { type ApiTrial, apiReadAccess, changeTrial, refusalSentence } from './api-trial.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const at = (s: string) => new Date(s);
const trial = (startedAt: string, endsAt: string): ApiTrial => ({ startedAt: at(startedAt), endsAt: at(endsAt) });
const RUNNING = trial('2026-03-08T12:00:00Z', '2026-03-15T12:00:00Z');
const ENDED = trial('2026-02-01T00:00:00Z', '2026-02-08T00:00:00Z');

describe('API read access', () => {
  it.each([
    { plan: 'unlimited', trial: null, first: false, gate: true, allowed: true, reason: 'plan' },
    { plan: 'unlimited', trial: ENDED, first: false, gate: true, allowed: true, reason: 'plan' },
    { plan: 'free', trial: null, first: true, gate: true, allowed: true, reason: 'first_account' },
    { plan: 'free', trial: null, first: false, gate: false, allowed: true, reason: 'gate_off' },
    { plan: 'free', trial: ENDED, first: false, gate: false, allowed: true, reason: 'gate_off' },
    { plan: 'free', trial: null, first: false, gate: true, allowed: false, reason: 'no_trial' },
    { plan: 'free', trial: RUNNING, first: false, gate: true, allowed: true, reason: 'trial' },
    { plan: 'free', trial: ENDED, first: false, gate: true, allowed: false, reason: 'trial_ended' },
    // The end is exclusive: at the instant it ends, reads are refused.
    {
      plan: 'free',
      trial: trial('2026-03-03T12:00:00Z', '2026-03-10T12:00:00Z'),
      first: false,
      gate: true,
      allowed: false,
      reason: 'trial_ended',
    },
    {
      plan: 'free',
      trial: trial('2026-03-03T12:00:00Z', '2026-03-10T12:00:01Z'),
      first: false,
      gate: true,
      allowed: true,
      reason: 'trial',
    },
  ] as const)('$plan, trial $trial.endsAt, first $first, gate $gate → $reason', ({ plan, trial, first, gate, allowed, reason }) => {
    const access = apiReadAccess({ plan, trial, firstAccount: first, gateOn: gate, now: NOW });
    expect(access).toEqual({ allowed, reason, trialEndsAt: trial?.endsAt ?? null });
  });

  it('says what to do, and when an ended trial ended', () => {
    const none = apiReadAccess({ plan: 'free', trial: null, firstAccount: false, gateOn: true, now: NOW });
    const ended = apiReadAccess({ plan: 'free', trial: ENDED, firstAccount: false, gateOn: true, now: NOW });
    if (none.allowed || ended.allowed) throw new Error('expected refusals');
    expect(refusalSentence(none)).toMatch(/free plan and has no API trial.*ask the operator of this Tidemark to start one/);
    expect(refusalSentence(ended)).toMatch(/ended at 2026-02-08T00:00:00Z.*extend the trial/);
    expect(refusalSentence(ended)).toMatch(/Creating tracking requests, webhooks and the web app keep working/);
  });
});

describe('the operator changes a trial', () => {
  const free = (t: ApiTrial | null) => ({ plan: 'free' as const, firstAccount: false, trial: t });

  it.each([
    { name: 'start without a trial', t: null, change: { action: 'start', days: 7 }, ends: '2026-03-17T12:00:00Z', started: NOW },
    { name: 'start again after one ended', t: ENDED, change: { action: 'start', days: 3 }, ends: '2026-03-13T12:00:00Z', started: NOW },
    {
      name: 'extend a running trial from its end',
      t: RUNNING,
      change: { action: 'extend', days: 7 },
      ends: '2026-03-22T12:00:00Z',
      started: RUNNING.startedAt,
    },
    {
      name: 'extend an ended trial from now',
      t: ENDED,
      change: { action: 'extend', days: 2 },
      ends: '2026-03-12T12:00:00Z',
      started: ENDED.startedAt,
    },
    { name: 'end a running trial now', t: RUNNING, change: { action: 'end' }, ends: NOW.toISOString(), started: RUNNING.startedAt },
    {
      name: 'end an ended trial: unchanged',
      t: ENDED,
      change: { action: 'end' },
      ends: ENDED.endsAt.toISOString(),
      started: ENDED.startedAt,
    },
  ] as const)('$name', ({ t, change, ends, started }) => {
    expect(changeTrial(free(t), change, NOW)).toEqual({ ok: true, trial: { startedAt: started, endsAt: at(ends) } });
  });

  it.each([
    {
      name: 'start while one runs',
      account: free(RUNNING),
      change: { action: 'start', days: 7 },
      problem: /runs until 2026-03-15T12:00:00Z; extend/,
    },
    {
      name: 'extend without a trial',
      account: free(null),
      change: { action: 'extend', days: 7 },
      problem: /no API trial to extend; start one/,
    },
    { name: 'end without a trial', account: free(null), change: { action: 'end' }, problem: /no API trial to end/ },
    { name: 'zero days', account: free(null), change: { action: 'start', days: 0 }, problem: /whole number from 1 to 365/ },
    { name: 'a fraction of a day', account: free(RUNNING), change: { action: 'extend', days: 1.5 }, problem: /whole number/ },
    { name: 'over a year', account: free(null), change: { action: 'start', days: 366 }, problem: /whole number/ },
    {
      name: 'an unlimited account',
      account: { plan: 'unlimited', firstAccount: false, trial: null },
      change: { action: 'start', days: 7 },
      problem: /unlimited plan/,
    },
    {
      name: "the operator's account",
      account: { plan: 'free', firstAccount: true, trial: null },
      change: { action: 'start', days: 7 },
      problem: /first account is never gated/,
    },
  ] as const)('refuses to $name', ({ account, change, problem }) => {
    const result = changeTrial(account, change, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });

  it('a started trial allows reads until its end, on the clock it was given', () => {
    const started = changeTrial(free(null), { action: 'start', days: 7 }, NOW);
    if (!started.ok) throw new Error(started.problem);
    const read = (now: string) =>
      apiReadAccess({ plan: 'free', trial: started.trial, firstAccount: false, gateOn: true, now: at(now) }).allowed;
    expect(read('2026-03-17T11:59:59Z')).toBe(true);
    expect(read('2026-03-17T12:00:00Z')).toBe(false);
  });
});

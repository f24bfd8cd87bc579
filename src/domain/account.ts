// Plans, features and per-account rate-limit buckets: the closed vocabularies every layer shares.
import type { ApiTrial } from './api-trial.js';

export const PLANS = ['free', 'unlimited'] as const;
export type Plan = (typeof PLANS)[number];

export const FEATURES = ['routing', 'rail_lfd', 'refresh', 'widget', 'extra_carriers', 'sandbox_control'] as const;
export type Feature = (typeof FEATURES)[number];

/** Active containers an account may track at once; null = no cap. */
export function activeContainerCap(plan: Plan): number | null {
  return plan === 'free' ? 10 : null;
}

export const RATE_BUCKETS = [
  'default',
  'create_tracking_request',
  'infer_number',
  'refresh_container',
  'session',
  'webhook_trigger',
] as const;
export type RateBucket = (typeof RATE_BUCKETS)[number];

/**
 * Requests per rolling 60 seconds, as the reference API documents them; `session` (the web app) and
 * `webhook_trigger` are Tidemark's. The trigger sends a request to any public host and answers with up to 2 KB of
 * what came back, so it has a small budget of its own (a web session's too) rather than the API's 100.
 */
export const DEFAULT_RATE_LIMITS: Record<RateBucket, number> = {
  default: 100,
  create_tracking_request: 100,
  infer_number: 200,
  refresh_container: 10,
  session: 300,
  webhook_trigger: 10,
};

export const RATE_WINDOW_MS = 60_000;

export interface Account {
  id: string;
  name: string;
  companyName: string;
  plan: Plan;
  features: Feature[];
  rateLimits: Partial<Record<RateBucket, number>>;
  /** The API trial the operator gave a free account (domain/api-trial.ts); null when it never had one. */
  apiTrial: ApiTrial | null;
  /** The operator's own account, created at the first start: its API reads are never gated. */
  firstAccount: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function hasFeature(account: Pick<Account, 'features'>, feature: Feature): boolean {
  return account.features.includes(feature);
}

export function rateLimitFor(account: Pick<Account, 'rateLimits'>, bucket: RateBucket): number {
  return account.rateLimits[bucket] ?? DEFAULT_RATE_LIMITS[bucket];
}

/** Applies enable/disable lists to a feature set; the result is sorted and unique. */
export function applyFeatureChanges(current: readonly Feature[], enable: readonly Feature[], disable: readonly Feature[]): Feature[] {
  const set = new Set(current);
  for (const f of enable) set.add(f);
  for (const f of disable) set.delete(f);
  return FEATURES.filter((f) => set.has(f));
}

// A sandbox world shared by the tenancy and document-shape suites: a fresh database, the simulated carriers,
// terminals and railroads listening on loopback for the real adapters, and accounts that track the documented
// example numbers through the real tracking requests and job queue, the world clock walked forward.
import type { Account, Feature } from '../../src/domain/account.js';
import { FEATURES, RATE_BUCKETS } from '../../src/domain/account.js';
import type { NewTrackingRequestInput } from '../../src/services/tracking-requests.js';
import { type TestApp, testApp } from './app.js';

export const DAY = 86_400_000;

/** One documented sandbox number (GET /sandbox/examples). */
export interface Example {
  scenario: string;
  scac: string | null;
  request_type: 'bill_of_lading' | 'booking_number' | 'container';
  request_number: string;
  expected_outcome: string;
}

export interface WorldAccount {
  account: Account;
  token: string;
  auth: { authorization: string };
  /** The tracking request of each tracked scenario. */
  requests: Map<string, string>;
}

export interface SandboxWorld {
  t: TestApp;
  examples: Example[];
  /** The examples the accounts track. */
  tracked: Example[];
  accounts: WorldAccount[];
  /** Walks the world clock forward; every step refreshes what is due, as the advance endpoint does. */
  walk(days: number): Promise<void>;
  close(): Promise<void>;
}

/** Scenarios whose tracking request ends `created` (some after retrying or waiting for the manifest). */
export const endsCreated = (e: Example) => e.expected_outcome.endsWith('created');

export function trackingInput(e: Example, customerId: string | null = null): NewTrackingRequestInput {
  return {
    requestType: e.request_type,
    requestNumber: e.request_number,
    scac: e.scac,
    autoDetect: e.scac === null,
    refNumbers: [],
    shipmentTags: [],
    customerId,
  };
}

/**
 * Lifts every rate limit of the account: the suites send thousands of requests while the wall clock
 * stands still, which the 100-a-minute default would answer with 429.
 */
export async function unlimited(t: TestApp, accountId: string): Promise<void> {
  const rateLimits = Object.fromEntries(RATE_BUCKETS.map((b) => [b, 1_000_000]));
  await t.services.accounts.update(t.database.db, accountId, { rateLimits });
}

/**
 * A world where `accounts` accounts (every feature, no rate limits) each track the same `scenarios`, the
 * first attempts run and the world walked `days` forward. `beforeTracking` may prepare each account (a
 * party) and return the customer a scenario's request names.
 */
export async function sandboxWorld(
  options: {
    accounts?: number;
    scenarios?: (e: Example) => boolean;
    days?: number;
    beforeTracking?: (t: TestApp, account: WorldAccount) => Promise<(e: Example) => string | null>;
    /** Settings of the app (TIDEMARK_* variables). */
    env?: Record<string, string>;
  } = {},
): Promise<SandboxWorld> {
  const t = await testApp({ sandbox: true, queue: true, listen: true, ...(options.env ? { env: options.env } : {}) });
  try {
    const accounts: WorldAccount[] = [];
    for (let i = 0; i < (options.accounts ?? 1); i++) {
      const { account, token, auth } = await t.account({ features: [...FEATURES] as Feature[] });
      await unlimited(t, account.id);
      accounts.push({ account, token, auth, requests: new Map() });
    }
    const res = await t.app.inject({ method: 'GET', url: '/sandbox/examples', headers: accounts[0]!.auth });
    if (res.statusCode !== 200) throw new Error(`GET /sandbox/examples answered ${res.statusCode}: ${res.body}`);
    const examples = res.json().data as Example[];
    const tracked = examples.filter(options.scenarios ?? endsCreated);
    for (const a of accounts) {
      const customerOf = options.beforeTracking ? await options.beforeTracking(t, a) : () => null;
      for (const e of tracked) {
        t.clock.advance(1000);
        a.requests.set(e.scenario, (await t.services.trackingRequests.create(a.account, trackingInput(e, customerOf(e)))).id);
      }
    }
    await t.queue!.runOnce('tracking.attempt');
    const world: SandboxWorld = {
      t,
      examples,
      tracked,
      accounts,
      async walk(days) {
        await t.services.sandbox!.advance(days * DAY);
      },
      close: () => t.close(),
    };
    if (options.days) await world.walk(options.days);
    return world;
  } catch (err) {
    await t.close();
    throw err;
  }
}

/** The shipment that an account's tracking request of `scenario` made. */
export async function shipmentOf(world: SandboxWorld, account: WorldAccount, scenario: string): Promise<string> {
  const [row] = await world.t.database.db.query<{ shipment_id: string | null }>('SELECT shipment_id FROM tracking_requests WHERE id = $1', [
    account.requests.get(scenario)!,
  ]);
  if (!row?.shipment_id) throw new Error(`the ${scenario} tracking request made no shipment`);
  return row.shipment_id;
}

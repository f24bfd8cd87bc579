// Delivering the outbox: workers claim due notifications (SKIP LOCKED leases, fair across endpoints), render the
// documents not yet kept and keep them (one statement per claim), sign every attempt afresh, POST, and record the
// attempts in batches (their logs and outcomes in one statement, the endpoints' failure streaks in another).
// Wall time throughout. A worker that dies mid-delivery leaves leases that expire: those notifications are
// delivered again (at least once; receivers de-duplicate by the notification id).
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { NotificationDocumentLoaders } from '../render/loaders.js';
import { sharedLoads } from '../render/shared-loads.js';
import { notificationDocument } from '../render/webhook-notification.js';
import type { Db } from '../storage/db.js';
import * as repo from '../storage/repositories/webhooks.js';
import { nextRetryDelayMs } from './retry-schedule.js';
import { signatureHeaders } from './signing.js';
import type { DeliveryRequest, DeliveryResult } from './transport.js';

export interface DeliverySettings {
  timeoutMs: number;
  /** An explicit retry schedule (used exactly as given), or null for the default jittered one. */
  retryScheduleMs: readonly number[] | null;
  /** Also send the reference API's `X-T49-Webhook-Signature`. */
  referenceHeader: boolean;
  /** A webhook whose every delivery failed for this long is deactivated. */
  disableAfterMs: number;
  userAgent: string;
}

export interface DeliveryDeps {
  db: Db;
  wall: Clock;
  transport: { post(req: DeliveryRequest): Promise<DeliveryResult> };
  /**
   * What notification documents load their includes from (the services the API renders with). Each document is
   * rendered once, before the first attempt; the documents of a claim load their includes together.
   */
  documents: NotificationDocumentLoaders;
  /** The base of the documents' absolute links (the public URL). */
  publicUrl: string;
  /** The secrets an attempt is signed with now (current first). */
  secrets(webhook: repo.WebhookRow, now: Date): Promise<string[]>;
  settings: DeliverySettings;
  random?: () => number;
  logger?: Logger;
  /** Notifications taken per claim, in flight at once per process, and in flight per endpoint. */
  batchSize?: number;
  concurrency?: number;
  perEndpoint?: number;
  /** Notifications of one endpoint a claim takes at most (the rest wait for the next claim). */
  claimPerEndpoint?: number;
}

export const DELIVERY_DEFAULTS = { batchSize: 256, concurrency: 64, perEndpoint: 8, claimPerEndpoint: 128 } as const;

/** An attempt is started only if its lease still covers the whole attempt and this margin to record it. */
const RECORD_MARGIN_MS = 15_000;

/** A claimed notification, its document rendered, ready to send. */
export interface Claimed {
  row: repo.NotificationRow & { lease_until: Date };
  /** Undefined: the webhook was deleted. */
  webhook: repo.WebhookRow | undefined;
  /** The body to send, or why there is none (ours: rendering, the database, the secrets). */
  body: { text: string; secrets: string[] } | { error: string };
}

/** What became of a claimed notification: an attempt to record, or a lease given back without one. */
export type Finished =
  | {
      kind: 'attempt';
      record: repo.AttemptRecord;
      /** What the attempt says about the endpoint; null when nothing was sent (the webhook is off). */
      endpoint: { webhookId: string; succeeded: boolean; error: string } | null;
    }
  | { kind: 'released'; id: string };

export class WebhookDelivery {
  readonly #d: DeliveryDeps;
  readonly #documents: NotificationDocumentLoaders;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly perEndpoint: number;
  readonly claimPerEndpoint: number;

  constructor(deps: DeliveryDeps) {
    this.#d = deps;
    this.#documents = sharedLoads(deps.documents);
    this.batchSize = deps.batchSize ?? DELIVERY_DEFAULTS.batchSize;
    this.concurrency = deps.concurrency ?? DELIVERY_DEFAULTS.concurrency;
    this.perEndpoint = deps.perEndpoint ?? DELIVERY_DEFAULTS.perEndpoint;
    this.claimPerEndpoint = deps.claimPerEndpoint ?? DELIVERY_DEFAULTS.claimPerEndpoint;
  }

  /** How long a claim is held: past the HTTP timeout with room to record the attempt. */
  get leaseMs(): number {
    return this.#d.settings.timeoutMs * 2 + 30_000;
  }

  /**
   * At the start of the only process that can use the database (embedded PGlite), every lease in it is a
   * killed process's: release them so those notifications go out now, not when the leases expire.
   */
  async releaseLeasesOfDeadProcess(): Promise<void> {
    await repo.clearNotificationLeases(this.#d.db);
  }

  /** Gives claimed notifications back (their attempts, if any, were not recorded): due again for any worker. */
  async release(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await repo.releaseNotifications(this.#d.db, [...ids]);
  }

  /**
   * Calls `onDue` whenever a commit makes notifications due (any process's). Resolves to the function that
   * stops listening.
   */
  async onDue(onDue: () => void): Promise<() => Promise<void>> {
    // A null message (the listening connection was lost and is back) also says: look now.
    return this.#d.db.listen(repo.DELIVERY_CHANNEL, () => onDue());
  }

  /**
   * Claims up to `limit` due notifications (at most `claimPerEndpoint` of one endpoint, none of `skipWebhooks`'),
   * and prepares them (see `prepare`). `raced`: another worker's claim took some of those chosen.
   */
  async claim(limit: number, skipWebhooks: readonly string[] = []): Promise<{ claimed: Claimed[]; raced: boolean }> {
    const { rows, raced } = await this.claimRows(limit, skipWebhooks);
    return { claimed: await this.prepare(rows), raced };
  }

  /** The claim alone (leases taken, nothing rendered yet). */
  async claimRows(limit: number, skipWebhooks: readonly string[] = []): Promise<{ rows: Claimed['row'][]; raced: boolean }> {
    const now = this.#d.wall.now();
    const { rows, raced } = await repo.claimDueNotifications(
      this.#d.db,
      now,
      new Date(now.getTime() + this.leaseMs),
      limit,
      this.claimPerEndpoint,
      skipWebhooks,
    );
    return { rows: rows as Claimed['row'][], raced };
  }

  /**
   * Makes claimed notifications ready to send: their webhooks and secrets, and the documents not kept yet,
   * rendered together and kept in one statement before anything is sent (every attempt and every redelivery sends
   * the same bytes). Should that fail, the notifications are given back before the error is thrown.
   */
  async prepare(rows: readonly Claimed['row'][]): Promise<Claimed[]> {
    if (rows.length === 0) return [];
    const { db, wall } = this.#d;
    const now = wall.now();
    try {
      const hooks = new Map(
        (await repo.findWebhooksForDelivery(db, [...new Set(rows.map((r) => r.webhook_id))])).map((h) => [h.id, h] as const),
      );
      const secrets = new Map<string, Promise<string[]>>();
      const secretsOf = (hook: repo.WebhookRow) => {
        let s = secrets.get(hook.id);
        if (!s) {
          s = this.#d.secrets(hook, now);
          secrets.set(hook.id, s);
        }
        return s;
      };
      const kept: { id: string; body: string }[] = [];
      const claimed = await Promise.all(
        rows.map(async (row): Promise<Claimed> => {
          const webhook = hooks.get(row.webhook_id);
          if (!webhook?.active) return { row, webhook, body: { error: 'not sent' } };
          try {
            let text = row.body;
            if (text === null) {
              text = JSON.stringify(await notificationDocument(this.#documents, row, this.#d.publicUrl));
              kept.push({ id: row.id, body: text });
            }
            return { row, webhook, body: { text, secrets: await secretsOf(webhook) } };
          } catch (err) {
            // Ours, not the receiver's: log it; it counts as a failed attempt.
            this.#d.logger?.error({ err, notification_id: row.id }, 'webhook delivery failed before sending');
            return { row, webhook, body: { error: `internal error: ${(err as Error).message}` } };
          }
        }),
      );
      await repo.setNotificationBodies(db, kept);
      return claimed;
    } catch (err) {
      // Nothing was sent: give the notifications back rather than leave them until their leases expire.
      await repo
        .releaseNotifications(
          db,
          rows.map((r) => r.id),
        )
        .catch(() => {});
      throw err;
    }
  }

  /** Sends one claimed notification and says what came of it; never throws. */
  async send(c: Claimed): Promise<Finished> {
    const { wall, settings } = this.#d;
    const { row, webhook } = c;
    const attempt = row.attempts + 1;
    if (!webhook?.active) {
      // Turned off (by the account or for failing): nothing is sent; a replay can send it later.
      const now = wall.now();
      return {
        kind: 'attempt',
        record: {
          log: {
            notification_id: row.id,
            attempt,
            started_at: now,
            duration_ms: 0,
            status_code: null,
            error: webhook
              ? `webhook is inactive${webhook.deactivated_reason ? `: ${webhook.deactivated_reason}` : ''}`
              : 'webhook was deleted',
            response_body: null,
          },
          outcome: { status: 'failed', nextAttemptAt: null },
          at: now,
        },
        endpoint: null,
      };
    }
    // Waiting in its endpoint's lane may have used up the lease: another worker may take it from here on.
    if (wall.now().getTime() + settings.timeoutMs + RECORD_MARGIN_MS > row.lease_until.getTime()) {
      return { kind: 'released', id: row.id };
    }
    let result: DeliveryResult;
    if ('error' in c.body) {
      const now = wall.now();
      result = {
        succeeded: false,
        statusCode: null,
        responseHeaders: {},
        responseBody: null,
        error: c.body.error,
        startedAt: now,
        durationMs: 0,
        retryAfterSeconds: null,
      };
    } else {
      const startedAt = wall.now();
      const text = c.body.text;
      let headers: Record<string, string>;
      try {
        headers = {
          ...Object.fromEntries(webhook.headers.map((h) => [h.name, h.value])),
          'content-type': 'application/json',
          'user-agent': settings.userAgent,
          ...signatureHeaders({
            id: row.id,
            timestamp: startedAt,
            body: text,
            secrets: c.body.secrets,
            referenceHeader: settings.referenceHeader,
          }),
        };
      } catch (err) {
        this.#d.logger?.error({ err, notification_id: row.id }, 'webhook delivery failed before sending');
        return this.send({ ...c, body: { error: `internal error: ${(err as Error).message}` } });
      }
      result = await this.#d.transport.post({ url: webhook.url, headers, body: text, timeoutMs: settings.timeoutMs });
    }
    const now = wall.now();
    const delay = result.succeeded
      ? null
      : nextRetryDelayMs({
          attemptsMade: attempt - row.retry_base,
          explicit: settings.retryScheduleMs,
          retryAfterSeconds: result.retryAfterSeconds,
          random: this.#d.random ?? Math.random,
        });
    const outcome = result.succeeded
      ? { status: 'succeeded' as const, nextAttemptAt: null }
      : delay === null
        ? { status: 'failed' as const, nextAttemptAt: null }
        : { status: 'pending' as const, nextAttemptAt: new Date(now.getTime() + delay) };
    return {
      kind: 'attempt',
      record: {
        log: {
          notification_id: row.id,
          attempt,
          started_at: result.startedAt,
          duration_ms: Math.round(result.durationMs),
          status_code: result.statusCode,
          error: result.error,
          response_body: result.responseBody,
        },
        outcome,
        at: now,
      },
      endpoint: { webhookId: webhook.id, succeeded: result.succeeded, error: result.error ?? `HTTP ${result.statusCode}` },
    };
  }

  /**
   * Records what came of a batch, in one transaction: the attempt logs and the notifications' states in one
   * statement, the endpoints' failure streaks in another, and the leases given back.
   */
  async record(finished: readonly Finished[]): Promise<void> {
    if (finished.length === 0) return;
    const attempts: repo.AttemptRecord[] = [];
    const released: string[] = [];
    for (const f of finished) {
      if (f.kind === 'attempt') attempts.push(f.record);
      else released.push(f.id);
    }
    const endpoints = endpointOutcomes(finished);
    for (let tries = 1; ; tries++) {
      try {
        await this.#d.db.transaction(async (tx) => {
          await repo.recordAttempts(tx, attempts);
          await repo.noteEndpointOutcomes(tx, endpoints, this.#d.settings.disableAfterMs);
          await repo.releaseNotifications(tx, released);
        });
        return;
      } catch (err) {
        // Two workers noting outcomes of the same endpoints may deadlock; one of them is told to try again.
        if ((err as { code?: string }).code !== '40P01' || tries >= 3) throw err;
      }
    }
  }

  /** Delivers what is due now (one round: claim, send, record); returns how many notifications it took. */
  async deliverDue(): Promise<number> {
    const { claimed } = await this.claim(this.batchSize);
    if (claimed.length === 0) return 0;
    // A lane per endpoint: a slow receiver holds up only its own notifications, never the others'.
    const limit = pLimit(this.concurrency);
    const lanes = new Map<string, ReturnType<typeof pLimit>>();
    const finished = await Promise.all(
      claimed.map((c) => {
        let lane = lanes.get(c.row.webhook_id);
        if (!lane) {
          lane = pLimit(this.perEndpoint);
          lanes.set(c.row.webhook_id, lane);
        }
        return lane(() => limit(() => this.send(c)));
      }),
    );
    await this.record(finished);
    return claimed.length;
  }
}

/**
 * Each endpoint's outcomes over a batch, in the order the attempts ended: the failures that ended the batch and
 * when they began (none if the last attempt succeeded), and whether a success came before them.
 */
export function endpointOutcomes(finished: readonly Finished[]): repo.EndpointOutcome[] {
  const by = new Map<string, repo.EndpointOutcome & { succeededBefore: boolean }>();
  for (const f of finished) {
    if (f.kind !== 'attempt' || !f.endpoint) continue;
    const { webhookId, succeeded, error } = f.endpoint;
    const at = f.record.at;
    const o = by.get(webhookId) ?? { webhookId, at, failingSince: null, restarted: false, lastError: '', succeededBefore: false };
    o.at = at;
    if (succeeded) {
      o.failingSince = null;
      o.succeededBefore = true;
    } else {
      if (o.failingSince === null) {
        o.failingSince = at;
        o.restarted = o.succeededBefore;
      }
      o.lastError = error;
    }
    by.set(webhookId, o);
  }
  return [...by.values()].map(({ succeededBefore: _, ...o }) => o);
}

export interface RunnerOptions {
  /** How often to look for due notifications when not woken (retries falling due, a missed wake-up). */
  idleMs?: number;
  /** Attempts recorded together: at this many, or this long after the first of them ended. */
  flushSize?: number;
  flushMs?: number;
}

/**
 * Delivers in a worker process until stopped, as a pipeline: claims whenever there is room and something may be
 * due (woken by the commit that made it due, by the poll, or because an endpoint's lane has drained), sends through
 * a lane per endpoint, and records the attempts in batches. Stopping sends nothing new, lets the attempts in flight
 * end and records them, and gives back the leases of those not started. A stop with a deadline (a process asked to
 * stop must be gone in seconds) gives back, at the deadline, the leases of attempts still waiting on their
 * receivers too: another worker sends them again (at least once; receivers de-duplicate by the notification id).
 */
export class DeliveryRunner {
  readonly #idleMs: number;
  readonly #flushSize: number;
  readonly #flushMs: number;
  readonly #limit: ReturnType<typeof pLimit>;
  readonly #lanes = new Map<string, ReturnType<typeof pLimit>>();
  /** Claimed and not yet ended, per endpoint; endpoints whose backlog may wait behind a full lane. */
  readonly #held = new Map<string, number>();
  readonly #behindFullLane = new Set<string>();
  #heldTotal = 0;
  /** Notifications claimed and not yet ended: what a stop at its deadline gives back. */
  readonly #inFlight = new Set<string>();
  /** The stop's deadline passed: what ends from now on is left to the leases given back. */
  #abandoned = false;
  #stopTimeoutMs = Number.POSITIVE_INFINITY;
  #finished: Finished[] = [];
  #flushing: Promise<void> | null = null;
  #flushTimer: NodeJS.Timeout | null = null;
  #settled: (() => void) | null = null;
  #stopped = false;
  #dirty = true;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;

  constructor(
    private readonly delivery: WebhookDelivery,
    private readonly logger: Logger | undefined,
    options: RunnerOptions | number = {},
  ) {
    const o = typeof options === 'number' ? { idleMs: options } : options;
    this.#idleMs = o.idleMs ?? 500;
    this.#flushSize = o.flushSize ?? Math.max(1, Math.floor(delivery.batchSize / 2));
    this.#flushMs = o.flushMs ?? 20;
    this.#limit = pLimit(delivery.concurrency);
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /**
   * Stops: nothing new is sent; attempts in flight may end for up to `timeoutMs` (none is cut off before), then
   * what is still in flight is given back. Resolves once everything that ended is recorded.
   */
  async stop(timeoutMs = Number.POSITIVE_INFINITY): Promise<void> {
    this.#stopTimeoutMs = timeoutMs;
    this.#stopped = true;
    this.#poke();
    await this.#loop;
  }

  /** Something may be due: claim as soon as there is room. */
  #poke(): void {
    this.#wake?.();
  }

  get #room(): number {
    return this.delivery.batchSize * 2 - this.#heldTotal;
  }

  async #run(): Promise<void> {
    let unlisten: (() => Promise<void>) | null = null;
    try {
      unlisten = await this.delivery.onDue(() => {
        this.#dirty = true;
        this.#poke();
      });
    } catch (err) {
      this.logger?.warn({ err }, 'cannot listen for new webhook notifications; polling only');
    }
    while (!this.#stopped) {
      const room = this.#room;
      // Claims are taken in sizeable bites while deliveries are in flight; at once when idle.
      if (this.#dirty && room > 0 && (this.#heldTotal === 0 || room >= this.delivery.batchSize / 4)) {
        this.#dirty = false;
        const limit = Math.min(this.delivery.batchSize, room);
        const skip = [...this.#held].filter(([, n]) => n > this.delivery.claimPerEndpoint).map(([id]) => id);
        for (const id of skip) this.#behindFullLane.add(id);
        try {
          const { rows, raced } = await this.delivery.claimRows(limit, skip);
          // A full claim may have left more; a claim that lost some to another worker's may have missed more.
          if (rows.length === limit || raced) this.#dirty = true;
          this.#hold(rows);
          // Rendering waits on the database: the next claim need not wait for it.
          if (rows.length > 0) {
            void this.delivery.prepare(rows).then(
              (claimed) => this.#dispatch(claimed),
              (err: unknown) => {
                this.logger?.error({ err }, 'could not prepare webhook deliveries');
                for (const r of rows) this.#ended(r, null);
              },
            );
          }
        } catch (err) {
          this.logger?.error({ err }, 'webhook delivery claim failed');
          await this.#sleep(this.#idleMs);
          this.#dirty = true;
        }
        continue;
      }
      if (!(await this.#sleep(this.#idleMs))) this.#dirty = true;
    }
    // Stopping: what is queued is given back, what is in flight ends (or is given back at the deadline), and
    // everything that ended is recorded.
    if (this.#heldTotal > 0) {
      let deadline: NodeJS.Timeout | undefined;
      const settled = await new Promise<boolean>((resolve) => {
        this.#settled = () => resolve(true);
        if (Number.isFinite(this.#stopTimeoutMs)) deadline = setTimeout(() => resolve(false), this.#stopTimeoutMs);
      });
      clearTimeout(deadline);
      if (!settled) {
        this.#abandoned = true;
        const left = [...this.#inFlight];
        this.logger?.warn(
          { notifications: left.length },
          'stopping: webhook attempts still waiting on their receivers are left to other workers',
        );
        await this.delivery
          .release(left)
          .catch((err: unknown) => this.logger?.error({ err }, 'could not give back webhook notifications; their leases expire'));
      }
    }
    this.#settled = null;
    await this.#flush();
    await unlisten?.().catch((err: unknown) => this.logger?.warn({ err }, 'could not stop listening'));
  }

  /** Resolves true when poked, false after `ms`. */
  #sleep(ms: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = null;
        resolve(false);
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = null;
        resolve(true);
      };
    });
  }

  /** Claimed notifications count against their endpoint's share from the claim on. */
  #hold(rows: readonly Claimed['row'][]): void {
    const perHook = new Map<string, number>();
    for (const r of rows) {
      perHook.set(r.webhook_id, (perHook.get(r.webhook_id) ?? 0) + 1);
      this.#inFlight.add(r.id);
      this.#held.set(r.webhook_id, (this.#held.get(r.webhook_id) ?? 0) + 1);
      this.#heldTotal++;
    }
    // An endpoint that filled its share of this claim may have more due behind it.
    for (const [id, n] of perHook) if (n >= this.delivery.claimPerEndpoint) this.#behindFullLane.add(id);
  }

  #dispatch(claimed: Claimed[]): void {
    for (const c of claimed) {
      const id = c.row.webhook_id;
      let lane = this.#lanes.get(id);
      if (!lane) {
        lane = pLimit(this.delivery.perEndpoint);
        this.#lanes.set(id, lane);
      }
      void lane(() =>
        this.#limit(async () => (this.#stopped ? ({ kind: 'released', id: c.row.id } as const) : this.delivery.send(c))),
      ).then(
        (f) => this.#ended(c.row, f),
        // send() does not throw; should it, the lease expires and the notification is sent again.
        (err: unknown) => {
          this.logger?.error({ err, notification_id: c.row.id }, 'webhook delivery failed');
          this.#ended(c.row, null);
        },
      );
    }
  }

  #ended(row: { id: string; webhook_id: string }, f: Finished | null): void {
    const webhookId = row.webhook_id;
    this.#inFlight.delete(row.id);
    // Given back at the stop's deadline: another worker has it now, and this process records nothing more.
    if (this.#abandoned) return;
    const held = (this.#held.get(webhookId) ?? 1) - 1;
    this.#heldTotal--;
    if (held === 0) {
      this.#held.delete(webhookId);
      this.#lanes.delete(webhookId);
    } else this.#held.set(webhookId, held);
    if (f) this.#finished.push(f);
    if (this.#finished.length >= this.#flushSize) void this.#flush();
    else this.#flushTimer ??= setTimeout(() => void this.#flush(), this.#flushMs);
    // Its lane is down to one claim's worth: claim the next while that is sent, so the lane never runs dry.
    if (held <= this.delivery.claimPerEndpoint && this.#behindFullLane.delete(webhookId)) {
      this.#dirty = true;
      this.#poke();
    } else if (this.#dirty) this.#poke();
    if (this.#heldTotal === 0) this.#settled?.();
  }

  /** Records what has ended (one batch at a time); a failed batch is tried again with the next. */
  async #flush(): Promise<void> {
    if (this.#flushTimer) {
      clearTimeout(this.#flushTimer);
      this.#flushTimer = null;
    }
    while (this.#flushing) await this.#flushing;
    if (this.#finished.length === 0) return;
    const batch = this.#finished;
    this.#finished = [];
    this.#flushing = this.delivery
      .record(batch)
      .catch((err: unknown) => {
        if (this.#stopped) {
          // Their leases expire and they are sent again: at least once.
          this.logger?.error({ err, attempts: batch.length }, 'could not record webhook attempts while stopping');
          return;
        }
        this.logger?.error({ err, attempts: batch.length }, 'could not record webhook attempts; trying again');
        this.#finished = [...batch, ...this.#finished];
        this.#flushTimer ??= setTimeout(() => void this.#flush(), 1000);
      })
      .finally(() => {
        this.#flushing = null;
      });
    await this.#flushing;
  }
}

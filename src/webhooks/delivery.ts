// Delivering the outbox: workers claim due notifications (SKIP-LOCKED-style leases, fair across endpoints),
// render each document once and keep it, sign every attempt afresh, POST, record the attempt, and schedule
// the next one or give up. Wall time throughout. A worker that dies mid-delivery leaves leases that expire:
// those notifications are delivered again (at least once; receivers de-duplicate by the notification id).
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
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
  /** The notification document (rendered once, on the first attempt). */
  render(row: repo.NotificationRow): Promise<unknown>;
  /** The secrets an attempt is signed with now (current first). */
  secrets(webhook: repo.WebhookRow, now: Date): Promise<string[]>;
  settings: DeliverySettings;
  random?: () => number;
  logger?: Logger;
  /** Notifications taken per round, in flight at once, and in flight per endpoint. */
  batchSize?: number;
  concurrency?: number;
  perEndpoint?: number;
}

export class WebhookDelivery {
  readonly #d: DeliveryDeps;
  readonly #batch: number;
  readonly #perEndpoint: number;
  readonly #limit: ReturnType<typeof pLimit>;

  constructor(deps: DeliveryDeps) {
    this.#d = deps;
    this.#batch = deps.batchSize ?? 100;
    this.#perEndpoint = deps.perEndpoint ?? 8;
    this.#limit = pLimit(deps.concurrency ?? 32);
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

  /** Delivers what is due now (one round); returns how many attempts were made. */
  async deliverDue(): Promise<number> {
    const now = this.#d.wall.now();
    const rows = await repo.claimDueNotifications(this.#d.db, now, new Date(now.getTime() + this.leaseMs), this.#batch, this.#perEndpoint);
    if (rows.length === 0) return 0;
    const hooks = new Map(
      (await repo.findWebhooksForDelivery(this.#d.db, [...new Set(rows.map((r) => r.webhook_id))])).map((h) => [h.id, h]),
    );
    // A lane per endpoint: a slow receiver holds up only its own notifications, never the others'.
    const perHook = new Map<string, ReturnType<typeof pLimit>>();
    await Promise.all(
      rows.map((row) => {
        let lane = perHook.get(row.webhook_id);
        if (!lane) {
          lane = pLimit(this.#perEndpoint);
          perHook.set(row.webhook_id, lane);
        }
        return lane(() => this.#limit(() => this.#attempt(row, hooks.get(row.webhook_id))));
      }),
    );
    return rows.length;
  }

  async #attempt(row: repo.NotificationRow, webhook: repo.WebhookRow | undefined): Promise<void> {
    const { db, wall, settings } = this.#d;
    const attempt = row.attempts + 1;
    if (!webhook?.active) {
      // Turned off (by the account or for failing): nothing is sent; a replay can send it later.
      const now = wall.now();
      await db.transaction((tx) =>
        repo.recordAttempt(
          tx,
          {
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
          { status: 'failed', nextAttemptAt: null },
          now,
        ),
      );
      return;
    }
    let result: DeliveryResult;
    try {
      let text = row.body;
      if (text === null) {
        text = JSON.stringify(await this.#d.render(row));
        await repo.setNotificationBody(db, row.id, text);
      }
      const startedAt = wall.now();
      const headers: Record<string, string> = {
        ...Object.fromEntries(webhook.headers.map((h) => [h.name, h.value])),
        'content-type': 'application/json',
        'user-agent': settings.userAgent,
        ...signatureHeaders({
          id: row.id,
          timestamp: startedAt,
          body: text,
          secrets: await this.#d.secrets(webhook, startedAt),
          referenceHeader: settings.referenceHeader,
        }),
      };
      result = await this.#d.transport.post({ url: webhook.url, headers, body: text, timeoutMs: settings.timeoutMs });
    } catch (err) {
      // Ours, not the receiver's (rendering, the database): log it and count it as a failed attempt.
      this.#d.logger?.error({ err, notification_id: row.id }, 'webhook delivery failed before sending');
      const now = wall.now();
      result = {
        succeeded: false,
        statusCode: null,
        responseHeaders: {},
        responseBody: null,
        error: `internal error: ${(err as Error).message}`,
        startedAt: now,
        durationMs: 0,
        retryAfterSeconds: null,
      };
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
    await db.transaction(async (tx) => {
      await repo.recordAttempt(
        tx,
        {
          notification_id: row.id,
          attempt,
          started_at: result.startedAt,
          duration_ms: Math.round(result.durationMs),
          status_code: result.statusCode,
          error: result.error,
          response_body: result.responseBody,
        },
        outcome,
        now,
      );
      await repo.noteEndpointOutcome(
        tx,
        webhook.id,
        result.succeeded,
        now,
        settings.disableAfterMs,
        result.error ?? `HTTP ${result.statusCode}`,
      );
    });
  }
}

/**
 * Runs delivery rounds in a worker process until stopped: at once while there is work, else every
 * `idleMs`. Stopping waits for the round in flight (its attempts are recorded, none is cut off midway).
 */
export class DeliveryRunner {
  #stopped = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;

  constructor(
    private readonly delivery: WebhookDelivery,
    private readonly logger: Logger | undefined,
    private readonly idleMs = 500,
  ) {}

  start(): void {
    this.#loop ??= this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let made = 0;
      try {
        made = await this.delivery.deliverDue();
      } catch (err) {
        this.logger?.error({ err }, 'webhook delivery round failed');
      }
      if (made === 0 && !this.#stopped) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.idleMs);
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.#wake = null;
      }
    }
  }
}

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

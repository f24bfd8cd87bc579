// The delivery loop of a worker process: claims due notifications while there is room, sends them through a lane
// per endpoint and records the attempts in batches (see delivery.ts for what one claim, send and record does).
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { Claimed, Finished, WebhookDelivery } from './delivery.js';

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

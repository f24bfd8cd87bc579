// The sandbox world as a service: its shared clock (read, advance step by step), its documented test
// numbers, and its faces — the simulated carriers, terminals, railroads and AIS — answering over HTTP
// through the pure world model and the pure renderers, with each story's anchor kept in PostgreSQL.

import type { Clock } from '../domain/clock.js';
import { TidemarkError } from '../domain/errors.js';
import { isoSeconds } from '../lib/dates.js';
import type { CarrierAnswer } from '../sandbox/answers.js';
import {
  type FaceResponse,
  renderAisVessel,
  renderArrivalNotices,
  renderDcsaEvents,
  renderRailContainer,
  renderTerminalContainer,
} from '../sandbox/faces/index.js';
import type { NumberType } from '../sources/contract.js';

export type { FaceResponse };

import {
  aisAnswer,
  carrierAnswer,
  isSandboxScac,
  railAnswer,
  type SandboxExample,
  type Story,
  sandboxExamples,
  tellStory,
  terminalAnswerAt,
} from '../sandbox/world/index.js';
import type { Db, Queryable } from '../storage/db.js';
import {
  advanceLockHeld,
  anchorStory,
  findStory,
  getClock,
  indexContainers,
  indexDocument,
  recordAdvance,
  type SandboxStoryRow,
  storyOfContainer,
  storyOfDocument,
  tryAdvanceLock,
} from '../storage/repositories/sandbox.js';
import type { SandboxWorldClock } from './world-clock.js';

/** The world never jumps further than this between two refresh rounds, so intermediate states are seen. */
export const MAX_STEP_MS = 6 * 3600_000;

/** Refreshes every tracked item due at `worldTime`, in order; returns how many it refreshed. */
export type RefreshDue = (worldTime: Date) => Promise<number>;
/** The earliest due time of any tracked item after `worldTime`, or null when nothing is scheduled. */
export type NextDue = (worldTime: Date) => Promise<Date | null>;

export interface ClockState {
  worldTime: Date;
  speed: number;
  /** An advance is walking the world now (in any process). */
  advancing: boolean;
  /** The target of the advance running now, or of the last one when it stopped short of it; else null. */
  targetAt: Date | null;
  /** How far that advance got: everything due up to this world time was refreshed. Null when it reached its target. */
  reachedAt: Date | null;
}

/** Test seams: called after each step of an advance is recorded (the crash test kills the process there). */
export interface SandboxHooks {
  afterAdvanceStep?: (reached: Date) => void;
}

const conflict = () =>
  new TidemarkError('conflict', 'The sandbox clock is being advanced by another request; try again when it is done.', {
    items: [{ title: 'Conflict', detail: 'The sandbox clock is being advanced by another request; try again when it is done.' }],
  });

export class SandboxService {
  #refreshDue: RefreshDue;
  #nextDue: NextDue = async () => null;
  /** An advance of this process is running: the lock below is reentrant within one PostgreSQL session. */
  #advancing = false;

  constructor(
    private readonly db: Db,
    private readonly seed: string,
    readonly clock: SandboxWorldClock,
    private readonly wall: Clock,
    refreshDue: RefreshDue = async () => 0,
    private readonly hooks: SandboxHooks = {},
  ) {
    this.#refreshDue = refreshDue;
  }

  /**
   * The tracking engine registers how a world step refreshes what is due and, optionally, when the next
   * item falls due, so a step stops there (set once at composition).
   */
  onStep(refreshDue: RefreshDue, nextDue?: NextDue): void {
    this.#refreshDue = refreshDue;
    this.#nextDue = nextDue ?? (async () => null);
  }

  async readClock(): Promise<ClockState> {
    await this.clock.refresh();
    const row = await getClock(this.db);
    const advancing = this.#advancing || (this.db.kind === 'postgres' && (await advanceLockHeld(this.db)));
    return {
      worldTime: this.clock.now(),
      speed: this.clock.speed,
      advancing,
      targetAt: row?.advanceTargetAt ?? null,
      reachedAt: row?.advanceReachedAt ?? null,
    };
  }

  /**
   * Walks the world forward by `ms` in steps of at most six hours, each ending early where a tracked item
   * falls due; after each step, everything due is refreshed before the next, so every check happens at its
   * own world time and a hold that appears and clears within a day is observed both ways.
   *
   * One advance at a time, under a lock that dies with its holder: on a server, a transaction-scoped advisory lock
   * held by a connection of this process for the whole walk (a process that dies, or loses that connection, drops
   * it at once, and the walk checks the connection at every step so that two walks never overlap); on PGlite the
   * data directory is this process's alone, so a flag in memory is the lock. Progress is recorded at every step,
   * so an advance that stops short (an error, a crash) says how far it got: `reached_at` in the error and in
   * `GET /sandbox/clock`. The world does not move back: what was walked stays walked.
   */
  async advance(ms: number): Promise<{ worldTime: Date; refreshed: number }> {
    if (this.#advancing) throw conflict();
    this.#advancing = true;
    try {
      if (this.db.kind === 'pglite') return await this.#walk(ms, null);
      return await this.db.transaction(async (lock) => {
        const pid = await tryAdvanceLock(lock);
        if (pid === null) throw conflict();
        return this.#walk(ms, { lock, pid });
      });
    } finally {
      this.#advancing = false;
    }
  }

  async #walk(ms: number, held: { lock: Queryable; pid: number } | null): Promise<{ worldTime: Date; refreshed: number }> {
    await this.clock.refresh();
    const target = new Date(this.clock.now().getTime() + ms);
    let reached = this.clock.now();
    // Progress is written only while the lock is ours (checked in the statement): a walker that lost it stops.
    const record = async (t: Date | null, r: Date | null) => {
      if (!(await recordAdvance(this.db, t, r, held?.pid ?? null))) throw lockLost();
    };
    let refreshed = 0;
    try {
      await record(target, reached);
      for (;;) {
        const current = this.clock.now().getTime();
        if (current >= target.getTime()) break;
        // Still holding the lock? A lost connection released it, and another process may be walking by now.
        if (held) await held.lock.query('SELECT 1');
        const due = (await this.#nextDue(new Date(current)))?.getTime() ?? Number.POSITIVE_INFINITY;
        const next = Math.min(target.getTime(), current + MAX_STEP_MS, due > current ? due : Number.POSITIVE_INFINITY);
        const world = await this.clock.moveTo(this.db, new Date(next));
        refreshed += await this.#refreshDue(world);
        await record(target, world);
        reached = world;
        this.hooks.afterAdvanceStep?.(reached);
      }
      await record(null, null);
    } catch (err) {
      throw stoppedShort(err, target, reached);
    }
    return { worldTime: this.clock.now(), refreshed };
  }

  examples(): readonly SandboxExample[] {
    return sandboxExamples();
  }

  /** `GET /sandbox/carriers/{scac}/v2/events`: a simulated carrier's DCSA TNT 2.2 endpoint. */
  async carrierEvents(
    scac: string,
    query: { numberType: NumberType; number: string; limit?: number; cursor?: string; eventType?: string },
    pageSelfUrl: string,
  ): Promise<FaceResponse> {
    const code = scac.toUpperCase();
    if (!isSandboxScac(code)) return faceNotFound(`No simulated carrier ${code}`);
    const answer = await this.carrierTruth(code, query.numberType, query.number);
    return renderDcsaEvents(answer, { scac: code, ...query }, { pageSelfUrl, now: this.wall.now() });
  }

  /**
   * `GET /sandbox/carriers/{scac}/v1/arrival-notices`: a simulated carrier's DCSA Arrival Notice 1.0.1 endpoint.
   * A bill of lading is the story asked by it, else the story (asked by booking or container) that carries it;
   * containers are asked only when no bill of lading is.
   */
  async carrierArrivalNotices(
    scac: string,
    query: { transportDocumentReferences: readonly string[]; equipmentReferences: readonly string[] },
  ): Promise<FaceResponse> {
    const code = scac.toUpperCase();
    if (!isSandboxScac(code)) return faceNotFound(`No simulated carrier ${code}`);
    const answers: CarrierAnswer[] = [];
    for (const reference of query.transportDocumentReferences) answers.push(await this.carrierTruthOfDocument(code, reference));
    if (query.transportDocumentReferences.length === 0) {
      for (const reference of query.equipmentReferences) {
        const story = await this.storyOfContainer(reference.replace(/\s+/g, '').toUpperCase());
        if (story && story.carrierScac === code) answers.push(carrierAnswer(story, this.clock.now()));
      }
    }
    return renderArrivalNotices(answers, { scac: code, ...query });
  }

  /** What the simulated carrier knows about a number now: the ground truth its DCSA face renders. */
  async carrierTruth(scac: string, numberType: NumberType, number: string): Promise<CarrierAnswer> {
    const story = await this.storyFor(scac.toUpperCase(), numberType, number);
    return carrierAnswer(story, this.clock.now());
  }

  private async carrierTruthOfDocument(scac: string, reference: string): Promise<CarrierAnswer> {
    const number = reference.trim().toUpperCase();
    await this.clock.refresh();
    const row =
      (await findStory(this.db, { seed: this.seed, scac, numberType: 'bill_of_lading', number })) ??
      (await storyOfDocument(this.db, this.seed, scac, number));
    if (row) return carrierAnswer(this.tell(row), this.clock.now());
    // A bill of lading nobody asked about yet: its notices are those of the story it starts, as for its events.
    return this.carrierTruth(scac, 'bill_of_lading', number);
  }

  /** `GET /sandbox/terminals/{code}/containers/{number}`: a simulated terminal's container record. */
  async terminalContainer(facilityCode: string, containerNumber: string): Promise<FaceResponse> {
    const code = facilityCode.toUpperCase();
    const number = containerNumber.toUpperCase();
    const story = await this.storyOfContainer(number);
    const answer = story ? terminalAnswerAt(story, code, number, this.clock.now()) : ({ status: 'not_found' } as const);
    return renderTerminalContainer(answer, { facilityCode: code, containerNumber: number });
  }

  /** `GET /sandbox/rail/{scac}/containers/{number}`: a simulated railroad's container trace. */
  async railContainer(railScac: string, containerNumber: string): Promise<FaceResponse> {
    const scac = railScac.toUpperCase();
    const number = containerNumber.toUpperCase();
    const story = await this.storyOfContainer(number);
    const answer = story ? railAnswer(story, number, this.clock.now()) : ({ status: 'not_found' } as const);
    // A railroad knows the boxes it moves: its own leg, or the interchange it hands over or receives.
    const ours = answer.status === 'ok' && (answer.railCarrierScac === scac || answer.milestones.some((m) => m.railCarrierScac === scac));
    return renderRailContainer(ours ? answer : { status: 'not_found' }, { railScac: scac, containerNumber: number });
  }

  /** `GET /sandbox/ais/vessels/{imo}`: a simulated AIS feed's track of one vessel. */
  async aisVessel(imo: string, window: { from?: Date; to?: Date }): Promise<FaceResponse> {
    await this.clock.refresh();
    const now = this.clock.now();
    const to = window.to && window.to < now ? window.to : now;
    const from = window.from ?? new Date(to.getTime() - 24 * 3600_000);
    return renderAisVessel(aisAnswer(this.seed, imo, now, { from, to }), { imo });
  }

  /** The story of a number, anchored at the current world time the first time any process sees it. */
  private async storyFor(scac: string, numberType: NumberType, rawNumber: string): Promise<Story> {
    await this.clock.refresh();
    const number = rawNumber.trim().toUpperCase();
    if (numberType === 'container') {
      // A box already in a bill of lading's story tells that story, whichever number was asked first.
      const existing = await storyOfContainer(this.db, this.seed, number);
      if (existing && existing.scac === scac) return this.tell(existing);
    }
    const row = await anchorStory(this.db, { seed: this.seed, scac, numberType, number }, this.clock.now(), this.wall.now());
    const story = this.tell(row);
    await indexContainers(this.db, this.seed, row.id, story.containers);
    if (story.billOfLading && numberType !== 'bill_of_lading') await indexDocument(this.db, this.seed, scac, story.billOfLading, row.id);
    return story;
  }

  private async storyOfContainer(number: string): Promise<Story | null> {
    await this.clock.refresh();
    const row = await storyOfContainer(this.db, this.seed, number);
    return row ? this.tell(row) : null;
  }

  private tell(row: SandboxStoryRow): Story {
    return tellStory({ seed: row.seed, scac: row.scac, numberType: row.numberType, number: row.number, anchorAt: row.anchorAt });
  }
}

const lockLost = () =>
  new TidemarkError('unavailable', 'The advance lost its lock (its database connection dropped)', {
    items: [{ title: 'Service Unavailable', detail: 'The advance lost its database connection, and with it the advance lock.' }],
    retryAfterSeconds: 1,
  });

/**
 * The error of an advance that stopped short: the cause's code and words (a lost database stays a 503 with
 * Retry-After), with how far it got in `meta` of each error item.
 */
function stoppedShort(err: unknown, target: Date, reached: Date): TidemarkError {
  const meta = { reached_at: isoSeconds(reached), target_at: isoSeconds(target) };
  const note = `The advance stopped at ${isoSeconds(reached)}, short of ${isoSeconds(target)}; the world stays there and everything due until then was refreshed.`;
  if (err instanceof TidemarkError) {
    const items = err.items.length ? err.items : [{ detail: err.code === 'internal' ? null : err.message }];
    return new TidemarkError(err.code, `${err.message} (${note})`, {
      items: items.map((item) => ({ ...item, detail: item.detail ? `${item.detail} ${note}` : note, meta: { ...item.meta, ...meta } })),
      retryable: err.retryable,
      retryAfterSeconds: err.retryAfterSeconds,
      cause: err,
    });
  }
  return new TidemarkError('internal', note, { items: [{ title: 'Internal Server Error', detail: note, meta }], cause: err });
}

function faceNotFound(detail: string): FaceResponse {
  return { status: 404, headers: { 'content-type': 'application/json' }, body: { errors: [{ reason: 'notFound', message: detail }] } };
}

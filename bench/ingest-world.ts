// The ingest bench's data: ordinary sandbox stories, and what their carrier, POD terminal and railroad answer at
// two world times, fetched once in advance through the real adapters (DCSA, terminal, rail) from the sandbox
// faces rendered in process. During the measured round a PreparedRegistry hands the engine these observations,
// so the engine's own work (normalize, diff, persist, notify) is what is timed, not the simulation.
import { pino } from 'pino';
import { type Clocks, FixedClock } from '../src/domain/clock.js';
import { renderArrivalNotices, renderDcsaEvents, renderRailContainer, renderTerminalContainer } from '../src/sandbox/faces/index.js';
import { carrierAnswer, isSandboxScac, railAnswer, type Story, tellStory, terminalAnswer } from '../src/sandbox/world/index.js';
import { type FetchContext, SourceError, type SourceObservation, type TrackTarget } from '../src/sources/contract.js';
import { CARRIERS, RAILROADS } from '../src/sources/reference/index.js';
import { type RegisteredSource, SourceRegistry } from '../src/sources/registry.js';
import { RateLimitService } from '../src/services/rate-limits.js';
import { ShippingLineService } from '../src/services/shipping-lines.js';
import { TrackingEngine } from '../src/services/tracking-engine.js';
import type { Db } from '../src/storage/db.js';

const WORLD_URL = 'http://world.bench.invalid';

/** Carriers the sandbox simulates that every account may track by bill of lading. */
export const BL_SCACS = CARRIERS.filter((c) => c.defaultEnabled && c.trackByBillOfLading && isSandboxScac(c.scac)).map((c) => c.scac);

export interface WorldSpec {
  seed: string;
  /** How many tracked bills of lading. */
  shipments: number;
  /** World time of the first fetch (the stories' anchor) and of the measured round. */
  t0: Date;
  t1: Date;
}

export interface Pick {
  scac: string;
  number: string;
  story: Story;
}

/** Actual container-level milestones per container in a carrier answer. */
function actualsPerContainer(story: Story, at: Date): Map<string, number> | null {
  const answer = carrierAnswer(story, at);
  // A carrier with no events at all answers "not found" over DCSA.
  if (answer.status !== 'ok' || answer.facts.milestones.length === 0) return null;
  const counts = new Map<string, number>(answer.facts.containers.map((c) => [c.number, 0]));
  for (const m of answer.facts.milestones) {
    if (m.classifier === 'actual' && m.containerNumber && counts.has(m.containerNumber)) {
      counts.set(m.containerNumber, counts.get(m.containerNumber)! + 1);
    }
  }
  return counts;
}

/**
 * The first `spec.shipments` ordinary stories (bills of lading, anchored at t0) in which every container gets at
 * least one new actual milestone between t0 and t1: the measured round changes every container.
 */
export function pickStories(spec: WorldSpec): Pick[] {
  const picks: Pick[] = [];
  for (let i = 0; picks.length < spec.shipments; i++) {
    if (i > spec.shipments * 50) throw new Error(`only ${picks.length} of ${spec.shipments} stories change every container`);
    const scac = BL_SCACS[i % BL_SCACS.length]!;
    const number = `${scac}B${String(i).padStart(9, '0')}`;
    const story = tellStory({ seed: spec.seed, scac, numberType: 'bill_of_lading', number, anchorAt: spec.t0 });
    if (story.scenario !== 'ordinary') continue;
    const before = actualsPerContainer(story, spec.t0);
    const after = actualsPerContainer(story, spec.t1);
    if (!before || !after || before.size === 0 || before.size !== after.size) continue;
    if ([...before].every(([c, n]) => (after.get(c) ?? 0) > n)) picks.push({ scac, number, story });
  }
  return picks;
}

const json = (status: number, headers: Record<string, string>, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The sandbox faces at one world time, served in process for these stories (what the HTTP routes do). */
function worldFetch(picks: Pick[], at: Date): typeof globalThis.fetch {
  const byNumber = new Map(picks.map((p) => [p.number, p.story]));
  const byContainer = new Map(picks.flatMap((p) => p.story.containers.map((c) => [c, p.story] as const)));
  return (async (input: string | URL | Request) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const q = url.searchParams;
    let m = /^\/sandbox\/carriers\/([A-Z]{2,4})\/v2\/events$/.exec(url.pathname);
    if (m) {
      const number = q.get('transportDocumentReference')!;
      const story = byNumber.get(number);
      const answer = story ? carrierAnswer(story, at) : ({ status: 'not_found' } as const);
      const face = renderDcsaEvents(
        answer,
        {
          scac: m[1]!,
          numberType: 'bill_of_lading',
          number,
          ...(q.has('limit') ? { limit: Number(q.get('limit')) } : {}),
          ...(q.has('cursor') ? { cursor: q.get('cursor')! } : {}),
        },
        { pageSelfUrl: url.href, now: at },
      );
      return json(face.status, face.headers, face.body);
    }
    m = /^\/sandbox\/carriers\/([A-Z]{2,4})\/v1\/arrival-notices$/.exec(url.pathname);
    if (m) {
      const refs = (q.get('transportDocumentReferences') ?? '').split(',').filter(Boolean);
      const answers = refs.flatMap((r) => (byNumber.has(r) ? [carrierAnswer(byNumber.get(r)!, at)] : []));
      const face = renderArrivalNotices(answers, { scac: m[1]!, transportDocumentReferences: refs, equipmentReferences: [] });
      return json(face.status, face.headers, face.body);
    }
    m = /^\/sandbox\/terminals\/([^/]+)\/containers\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const code = decodeURIComponent(m[1]!).toUpperCase();
      const number = decodeURIComponent(m[2]!).toUpperCase();
      const story = byContainer.get(number);
      const answer = story ? terminalAnswer(story, number, at) : ({ status: 'not_found' } as const);
      const here = answer.status === 'ok' && answer.yard.facility.facilityCode?.toUpperCase() === code;
      const face = renderTerminalContainer(here ? answer : { status: 'not_found' }, { facilityCode: code, containerNumber: number });
      return json(face.status, face.headers, face.body);
    }
    m = /^\/sandbox\/rail\/([^/]+)\/containers\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const scac = decodeURIComponent(m[1]!).toUpperCase();
      const number = decodeURIComponent(m[2]!).toUpperCase();
      const story = byContainer.get(number);
      const answer = story ? railAnswer(story, number, at) : ({ status: 'not_found' } as const);
      const ours = answer.status === 'ok' && (answer.railCarrierScac === scac || answer.milestones.some((x) => x.railCarrierScac === scac));
      const face = renderRailContainer(ours ? answer : { status: 'not_found' }, { railScac: scac, containerNumber: number });
      return json(face.status, face.headers, face.body);
    }
    return json(404, {}, { errors: [{ reason: 'notFound', message: url.pathname }] });
  }) as typeof globalThis.fetch;
}

/** What every source answers for these stories at one world time: observations, or the error kind. */
export interface Answers {
  carrier: Map<string, SourceObservation>;
  /** Per container: the facility whose terminal knows it and its answer. */
  terminal: Map<string, { code: string; observation: SourceObservation }>;
  /** Per container and railroad SCAC. */
  rail: Map<string, SourceObservation>;
}

/** Fetches every answer once through the real adapters (the registry the sandbox configures). */
export async function prepareAnswers(picks: Pick[], at: Date): Promise<Answers> {
  const registry = new SourceRegistry({ sandboxUrl: WORLD_URL, carriers: {}, fetch: worldFetch(picks, at) });
  const clock = new FixedClock(at);
  const ctx = (): FetchContext => ({ signal: new AbortController().signal, now: () => clock.now() });
  const answers: Answers = { carrier: new Map(), terminal: new Map(), rail: new Map() };
  const terminal = registry.all().find((s) => s.kind === 'terminal')!;
  for (const p of picks) {
    answers.carrier.set(
      p.number,
      await registry.carrier(p.scac)!.adapter.fetch({ numberType: 'bill_of_lading', number: p.number, scac: p.scac }, ctx()),
    );
    for (const c of p.story.containers) {
      const t = terminalAnswer(p.story, c, at);
      if (t.status === 'ok' && t.yard.facility.facilityCode) {
        const code = t.yard.facility.facilityCode.toUpperCase();
        answers.terminal.set(c, {
          code,
          observation: await terminal.adapter.fetch({ numberType: 'container', number: c, facilityCode: code }, ctx()),
        });
      }
      const r = railAnswer(p.story, c, at);
      if (r.status !== 'ok') continue;
      for (const railroad of RAILROADS) {
        const source = registry.railroad(railroad.scac);
        if (!source) continue;
        if (r.railCarrierScac !== railroad.scac && !r.milestones.some((x) => x.railCarrierScac === railroad.scac)) continue;
        answers.rail.set(
          `${c} ${railroad.scac}`,
          await source.adapter.fetch({ numberType: 'container', number: c, scac: railroad.scac }, ctx()),
        );
      }
    }
  }
  return answers;
}

/**
 * The engine's source registry for the bench: the sandbox registry's sources (ids, kinds, limits), each answering
 * from prepared observations as the sandbox face would (not known → `not_found`). Counts the carrier fetches per
 * number, to prove no tracked shipment is refreshed twice.
 */
export class PreparedRegistry extends SourceRegistry {
  answers: Answers = { carrier: new Map(), terminal: new Map(), rail: new Map() };
  readonly carrierFetches = new Map<string, number>();
  readonly #wrapped = new Map<string, RegisteredSource>();

  constructor() {
    super({ sandboxUrl: WORLD_URL, carriers: {} });
  }

  #wrap(source: RegisteredSource | undefined, answer: (t: TrackTarget) => SourceObservation | undefined): RegisteredSource | undefined {
    if (!source) return undefined;
    let wrapped = this.#wrapped.get(source.id);
    if (!wrapped) {
      wrapped = {
        ...source,
        adapter: {
          fetch: async (target: TrackTarget, ctx: FetchContext) => {
            const o = answer(target);
            if (!o) throw new SourceError('not_found', `${source.id}: ${target.number} is not known`);
            return { ...o, target, fetchedAt: ctx.now() };
          },
        },
      };
      this.#wrapped.set(source.id, wrapped);
    }
    return wrapped;
  }

  override carrier(scac: string): RegisteredSource | undefined {
    return this.#wrap(super.carrier(scac), (t) => {
      this.carrierFetches.set(t.number, (this.carrierFetches.get(t.number) ?? 0) + 1);
      return this.answers.carrier.get(t.number);
    });
  }

  override terminal(code: string): RegisteredSource | undefined {
    return this.#wrap(super.terminal(code), (t) => {
      const a = this.answers.terminal.get(t.number);
      return a && a.code === t.facilityCode?.split(':').pop()?.toUpperCase() ? a.observation : undefined;
    });
  }

  override railroad(code: string): RegisteredSource | undefined {
    return this.#wrap(super.railroad(code), (t) => this.answers.rail.get(`${t.number} ${t.scac?.toUpperCase()}`));
  }
}

/** The engine as the composition root builds it, with the prepared registry as its sources. */
export function buildEngine(db: Db, clocks: Clocks, registry: PreparedRegistry): TrackingEngine {
  return new TrackingEngine({
    db,
    clocks,
    registry: () => registry,
    shippingLines: new ShippingLineService({ sandbox: true, realScacs: [] }),
    // Nothing here enqueues (only on-demand refreshes do).
    jobs: { enqueue: async () => null },
    rateLimits: new RateLimitService(db, clocks.wall),
    ...(process.env.INGEST_DEBUG ? { logger: pino({ level: 'warn' }) } : {}),
  });
}

/** Runs the engine's sweep until nothing is due at `at`; returns how many refreshes it made. */
export async function drain(engine: TrackingEngine, at: Date): Promise<number> {
  let handled = 0;
  for (;;) {
    const n = await engine.runDue(at);
    if (n === 0) return handled;
    handled += n;
  }
}

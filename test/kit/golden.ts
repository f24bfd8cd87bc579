// Golden timelines: every named sandbox scenario with a journey, told with a fixed seed and anchor and walked in
// 12-hour steps of world time through the pure engine layer (normalize, detectChanges, nextChecks, autoStopReason),
// without a database. Each step asks the carrier, the POD terminal and the railroad as the tracking engine does
// (src/services/tracking-engine.ts #fetchSources), using the world's answers directly: the faces are proven
// lossless against the adapters (test/e2e/sandbox.test.ts), so the answers' canonical facts are what the adapters
// would hand the engine. What a step changed is written as one compact line per container.
//
// Differences from the running engine, on purpose: every source is asked at every 12-hour step (the engine asks on
// its phase cadence, hourly near a pickup), and AIS port calls are left out (the engine merges them in from the
// stored vessel tracks; they only fill in dates the line has not given).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { localDate } from '../../src/domain/lfd.js';
import { EVENT_NAMES } from '../../src/domain/events.js';
import type { CarrierAnswer } from '../../src/sandbox/answers.js';
import {
  carrierAnswer,
  railAnswer,
  type SandboxExample,
  sandboxExamples,
  tellStory,
  terminalAnswerAt,
} from '../../src/sandbox/world/index.js';
import type { SourceObservation } from '../../src/sources/contract.js';
import { RAILROADS } from '../../src/sources/reference/index.js';
import { inOrder, terminalKeysToAsk } from '../../src/services/tracking-engine.js';
import { SANDBOX_TERMINAL_CODES, terminalPathCode } from '../../src/sources/terminals/sandbox/index.js';
import { type DomainEvent, detectChanges, type StoredState } from '../../src/tracking/changes.js';
import { normalize } from '../../src/tracking/normalize.js';
import { autoStopReason, MANIFEST_EXPIRY_MS, nextChecks, type StopReason } from '../../src/tracking/schedule.js';
import { CONTAINER_STATUSES, type ContainerSnapshot, type ContainerStatus } from '../../src/tracking/snapshot.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** The world's seed: the service's default (`TIDEMARK_SANDBOX_SEED`). */
export const GOLDEN_SEED = 'tidemark';
/** The instant every story is first asked about (its anchor); the walk's world clock starts here too. */
export const GOLDEN_ANCHOR = new Date('2026-11-25T00:00:00.000Z');
export const STEP_MS = 12 * HOUR;
/** A journey that has not ended (empty return or auto-stop) this long after the anchor is cut off here. */
export const HORIZON_MS = 200 * DAY;
/** The scenario whose first container (by number) is marked delivered by hand, at the first step it is seen picked up. */
export const HAND_MARK_SCENARIO = 'succeeded';
/** `TIDEMARK_UPDATE_GOLDEN=1` rewrites the golden files and the checked docs tables instead of comparing. */
export const UPDATE_GOLDEN = process.env.TIDEMARK_UPDATE_GOLDEN === '1';

export const GOLDEN_DIR = resolve(import.meta.dirname, '../golden');
export const SANDBOX_DOC = resolve(import.meta.dirname, '../../docs/sandbox.md');

/** The features an account needs to see every event (the engine announces with all of them). */
const ALL_FEATURES = ['rail_lfd'];
/** Statuses Tidemark never derives (drayage states of the reference's value set: docs/tracking.md). */
export const NEVER_DERIVED: ReadonlySet<ContainerStatus> = new Set(['dropped', 'loaded']);
/** Statuses some named scenario must reach. */
export const REQUIRED_STATUSES: readonly ContainerStatus[] = CONTAINER_STATUSES.filter((s) => !NEVER_DERIVED.has(s));
/** Events some named scenario must produce: the catalogue's, documents aside (Tidemark sends none). */
export const REQUIRED_EVENTS: readonly string[] = EVENT_NAMES.filter((e) => !e.startsWith('document.'));

/** Scenarios whose tracking request ends `created`: they have a journey to walk. */
export const hasJourney = (e: Pick<SandboxExample, 'expected_outcome'>) => e.expected_outcome.endsWith('created');

/** The tracking_request.* events a scenario's expected outcome implies (the journey adds tracking_stopped). */
export function outcomeEvents(e: Pick<SandboxExample, 'expected_outcome'>): string[] {
  const out: string[] = [];
  if (e.expected_outcome === 'awaiting_manifest_then_created' || e.expected_outcome === 'failed:expired') {
    out.push('tracking_request.awaiting_manifest');
  }
  out.push(hasJourney(e) ? 'tracking_request.succeeded' : 'tracking_request.failed');
  return out;
}

export interface GoldenResult {
  example: SandboxExample;
  /** The timeline as written to test/golden/<scenario>.txt. */
  text: string;
  /** Every event name announced (tracking_request.* included), and every status shown. */
  events: Set<string>;
  statuses: Set<ContainerStatus>;
  stopped: StopReason | null;
}

const minute = (iso: string | null) => (iso ? `${iso.slice(0, 16)}Z` : '-');
const day = (iso: string | null, zone: string | null) => (iso ? (localDate(Date.parse(iso), zone) ?? iso) : '-');

/** The container's line: what a person acts on, in one row. */
function describeContainer(c: ContainerSnapshot, status: ContainerStatus): string {
  const podZone = c.pod_timezone;
  const railZone = c.final_destination_timezone ?? c.pod_timezone;
  const avail = c.available_for_pickup === null ? '-' : c.available_for_pickup ? (c.ready_for_pickup ? 'ready' : 'yes') : 'no';
  const holds = (list: ContainerSnapshot['holds_at_pod_terminal']) => (list ?? []).map((h) => `${h.name}:${h.status}`).join(',') || '-';
  const fees = (list: ContainerSnapshot['fees_at_pod_terminal']) =>
    (list ?? []).map((f) => `${f.type}:${f.amount}${f.currency_code}`).join(',') || '-';
  const binding = c.pickup_lfd_binding ? `${day(c.pickup_lfd_binding, c.pickup_lfd_binding_timezone)}/${c.pickup_lfd_binding_party}` : '-';
  const parts = [
    status,
    `lfd=${day(c.pickup_lfd, c.pickup_lfd_line || c.pickup_lfd_terminal ? podZone : railZone)}`,
    `bind=${binding}`,
    `T=${day(c.pickup_lfd_terminal, podZone)}`,
    `L=${day(c.pickup_lfd_line, podZone)}`,
    `R=${day(c.pickup_lfd_rail, railZone)}`,
    `avail=${avail}`,
    `holds=${holds(c.holds_at_pod_terminal)}`,
    `fees=${fees(c.fees_at_pod_terminal)}`,
  ];
  if ((c.ind_facility_holds ?? []).length > 0) parts.push(`rail_holds=${holds(c.ind_facility_holds)}`);
  if ((c.ind_facility_fees ?? []).length > 0) parts.push(`rail_fees=${fees(c.ind_facility_fees)}`);
  if (c.pickup_appointment_at) parts.push(`appt=${minute(c.pickup_appointment_at)}`);
  const terminal = c.pod_terminal?.firmsCode ?? c.pod_terminal?.name ?? null;
  if (terminal) parts.push(`at=${terminal}${c.pod_terminal_off_dock ? '(off-dock)' : ''}`);
  return parts.join(' ');
}

const TERMINAL_CODES = new Set(SANDBOX_TERMINAL_CODES.map((c) => c.toUpperCase()));

function observation(
  sourceId: string,
  target: SourceObservation['target'],
  facts: SourceObservation['facts'],
  at: Date,
): SourceObservation {
  return { sourceId, target, fetchedAt: at, payload: null, payloadSha256: '', facts };
}

/** Walks one scenario with a journey, step by step, to its end; the timeline and what it produced. */
export function goldenTimeline(example: SandboxExample): GoldenResult {
  const scac = example.scac ?? '';
  const story = tellStory({
    seed: GOLDEN_SEED,
    scac,
    numberType: example.request_type,
    number: example.request_number,
    anchorAt: GOLDEN_ANCHOR,
  });
  const target = { numberType: example.request_type, number: example.request_number, scac };
  const events = new Set<string>();
  const statuses = new Set<ContainerStatus>();
  const lines: string[] = [
    `# ${example.scenario}: ${scac} ${example.request_type} ${example.request_number} (expected: ${example.expected_outcome})`,
    `# seed ${GOLDEN_SEED}, anchor ${GOLDEN_ANCHOR.toISOString()}, 12-hour steps; a step is written only when something changed.`,
    '# per container: status lfd=pickup_lfd bind=binding LFD/party T/L/R=terminal/line/rail LFD avail holds fees [appt at]; ev=events',
  ];

  let state: StoredState | null = null;
  let requestStatus: 'pending' | 'awaiting_manifest' | 'created' = 'pending';
  let lastCarrierFacts: string | null = null;
  let lineLastChangedAt: Date | null = null;
  let railScac: string | null = null;
  let lastCarrierStatus: CarrierAnswer['status'] | null = null;
  let awaitingSince = 0;
  let stopped: StopReason | null = null;
  const marked = new Set<string>();
  const previousLine = new Map<string, string>();

  for (let k = 0; ; k++) {
    const t = GOLDEN_ANCHOR.getTime() + k * STEP_MS;
    const worldNow = new Date(t);
    const stamp = `day ${String((k / 2).toFixed(1)).padStart(5)} ${worldNow.toISOString().slice(0, 16)}Z`;
    const out: string[] = [];
    if (t - GOLDEN_ANCHOR.getTime() > HORIZON_MS) {
      lines.push(`${stamp}  horizon reached (${HORIZON_MS / DAY} days): the journey has not ended`);
      break;
    }

    const answer: CarrierAnswer = carrierAnswer(story, worldNow);
    const carrierStatus = lastCarrierStatus;
    lastCarrierStatus = answer.status;
    if (answer.status !== 'ok') {
      const changed = answer.status !== carrierStatus;
      if (requestStatus === 'created') {
        // A shipment already tracked: the line's failure changes nothing (its last word is kept).
        if (changed) lines.push(`${stamp}  carrier answers ${answer.status}`);
        continue;
      }
      if (answer.status === 'awaiting_manifest') {
        // Asked again until manifested, for at most seven days (schedule.ts decideAfterSourceError).
        if (requestStatus === 'pending') {
          requestStatus = 'awaiting_manifest';
          awaitingSince = t;
          events.add('tracking_request.awaiting_manifest');
          lines.push(`${stamp}  request awaiting_manifest ev=tracking_request.awaiting_manifest`);
        } else if (t - awaitingSince >= MANIFEST_EXPIRY_MS) {
          events.add('tracking_request.failed');
          lines.push(`${stamp}  request failed: expired ev=tracking_request.failed`);
          break;
        }
        continue;
      }
      if (answer.status === 'unavailable') {
        if (changed) lines.push(`${stamp}  request pending: carrier unavailable (retrying)`);
        continue;
      }
      events.add('tracking_request.failed');
      lines.push(`${stamp}  request failed: carrier answers ${answer.status} ev=tracking_request.failed`);
      break;
    }

    // The line's word, then the terminals and the railroad it points at (tracking-engine.ts #fetchSources).
    const carrier = observation(`dcsa:${scac}`, target, answer.facts, worldNow);
    const factsJson = JSON.stringify(answer.facts);
    if (factsJson !== lastCarrierFacts) lineLastChangedAt = worldNow;
    lastCarrierFacts = factsJson;
    const ctx = { worldNow, accountFeatures: ALL_FEATURES };
    const withCarrier = detectChanges(state, normalize({ carrier, terminals: [], rail: [] }, { worldNow }), ctx).state;
    const checks = nextChecks(withCarrier.shipment, withCarrier.containers, worldNow);
    const terminals: SourceObservation[] = [];
    const rail: SourceObservation[] = [];
    if (checks.terminal !== null) {
      for (const c of withCarrier.containers) {
        if (c.empty_terminated_at || c.pod_full_out_at) continue;
        // The terminal that has the box, else the line's (tracking-engine.ts terminalKeysToAsk), as the face answers
        // (services/sandbox.ts terminalContainer).
        for (const key of terminalKeysToAsk(c, withCarrier.shipment)) {
          if (!TERMINAL_CODES.has(key.toUpperCase())) continue;
          const ans = terminalAnswerAt(story, terminalPathCode(key), c.number, worldNow);
          if (ans.status !== 'ok') continue;
          terminals.push(
            observation(
              'terminal:sandbox',
              { numberType: 'container', number: c.number, facilityCode: key },
              { shipment: null, containers: [], milestones: ans.milestones, yard: [ans.yard], vesselPositions: [] },
              worldNow,
            ),
          );
          break;
        }
      }
    }
    if (checks.rail !== null) {
      for (const c of withCarrier.containers) {
        if (!c.rail_move || c.empty_terminated_at || c.final_destination_full_out_at) continue;
        const known: string | null = railScac ?? c.pod_rail_carrier_scac ?? c.ind_rail_carrier_scac;
        const ans = railAnswer(story, c.number, worldNow);
        if (ans.status !== 'ok') continue;
        // A railroad knows the boxes it moves: its own leg, or an interchange (services/sandbox.ts railContainer).
        const ours = (s: string) => ans.railCarrierScac === s || ans.milestones.some((m) => m.railCarrierScac === s);
        const scacAsked: string | undefined = (known ? [known] : RAILROADS.map((r) => r.scac)).find(ours);
        if (!scacAsked) continue;
        railScac = scacAsked;
        rail.push(
          observation(
            'rail:sandbox',
            { numberType: 'container', number: c.number, scac: scacAsked },
            { shipment: null, containers: [], milestones: ans.milestones, yard: ans.yard ? [ans.yard] : [], vesselPositions: [] },
            worldNow,
          ),
        );
      }
    }
    const result = detectChanges(state, normalize({ carrier, terminals, rail }, { worldNow }), ctx);
    state = result.state;

    // A new request's first snapshot is the account's baseline: its containers are created, nothing else is announced.
    let announced: DomainEvent[];
    if (requestStatus !== 'created') {
      requestStatus = 'created';
      events.add('tracking_request.succeeded');
      out.push(`  request created: ${state.containers.length} container(s) ev=tracking_request.succeeded`);
      announced = state.containers.map((c) => ({
        type: 'container.created',
        container_number: c.number,
        timestamp: worldNow.toISOString() as never,
        timezone: null,
      }));
    } else {
      announced = inOrder(result.events);
    }

    const shipmentEvents: string[] = [];
    const byContainer = new Map<string, string[]>();
    for (const e of announced) {
      events.add(e.type);
      if ('container_number' in e) {
        const list = byContainer.get(e.container_number) ?? [];
        list.push(e.type);
        byContainer.set(e.container_number, list);
      } else {
        shipmentEvents.push(`${e.type}(${minute(e.estimated_event.estimated_timestamp)})`);
      }
    }

    const handMarked = example.scenario === HAND_MARK_SCENARIO ? state.containers.map((c) => c.number).sort()[0] : undefined;
    for (const c of state.containers) {
      let status = c.current_status;
      // The hand mark (PATCH /v2/containers/{id} delivered_at): announced once, the status `delivered` until the
      // empty return (storage/repositories/containers.ts setManualDelivery).
      if (c.number === handMarked && status === 'picked_up' && !marked.has(c.number)) {
        marked.add(c.number);
        const list = byContainer.get(c.number) ?? [];
        list.push('container.transport.delivered');
        byContainer.set(c.number, list);
        events.add('container.transport.delivered');
        out.push(`  ${c.number} marked delivered by hand at ${minute(worldNow.toISOString())}`);
      }
      if (marked.has(c.number) && status !== 'empty_returned') status = 'delivered';
      statuses.add(status);
      const line = describeContainer(c, status);
      const fired = byContainer.get(c.number) ?? [];
      if (line !== previousLine.get(c.number) || fired.length > 0) {
        out.push(`  ${c.number} ${line}${fired.length > 0 ? ` ev=${fired.join(',')}` : ''}`);
      }
      previousLine.set(c.number, line);
    }
    if (shipmentEvents.length > 0) out.push(`  shipment ev=${shipmentEvents.join(',')}`);

    stopped = autoStopReason(state.shipment, state.containers, lineLastChangedAt, worldNow);
    if (stopped) {
      events.add('tracking_request.tracking_stopped');
      out.push(`  tracking stopped: ${stopped} ev=tracking_request.tracking_stopped`);
    }
    if (out.length > 0) lines.push(stamp, ...out);
    if (stopped) break;
  }
  return { example, text: `${lines.join('\n')}\n`, events, statuses, stopped };
}

/** Every named scenario with a journey, read from the world's list now (new scenarios are picked up). */
export function journeyExamples(): SandboxExample[] {
  return sandboxExamples().filter(hasJourney);
}

export const goldenPath = (scenario: string) => resolve(GOLDEN_DIR, `${scenario}.txt`);

export function readGolden(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export function writeGolden(path: string, text: string): void {
  writeFileSync(path, text);
}

// ------------------------------------------------------------------------------------------- the docs tables

export const EVENTS_TABLE_START = '<!-- golden:events-by-scenario:start (generated by test/golden/golden.test.ts) -->';
export const EVENTS_TABLE_END = '<!-- golden:events-by-scenario:end -->';
export const STATUS_TABLE_START = '<!-- golden:statuses-by-scenario:start (generated by test/golden/golden.test.ts) -->';
export const STATUS_TABLE_END = '<!-- golden:statuses-by-scenario:end -->';

export interface Coverage {
  events: Map<string, string[]>;
  statuses: Map<string, string[]>;
}

/** Which scenarios produce each event and reach each status: the journeys', and the outcomes' request events. */
export function coverage(results: readonly GoldenResult[], examples: readonly SandboxExample[]): Coverage {
  const events = new Map<string, Set<string>>();
  const statuses = new Map<string, Set<string>>();
  const add = (m: Map<string, Set<string>>, key: string, scenario: string) => {
    const set = m.get(key) ?? new Set();
    set.add(scenario);
    m.set(key, set);
  };
  for (const e of examples) for (const name of outcomeEvents(e)) add(events, name, e.scenario);
  for (const r of results) {
    for (const name of r.events) add(events, name, r.example.scenario);
    for (const s of r.statuses) add(statuses, s, r.example.scenario);
  }
  const order = new Map<string, number>(examples.map((e, i) => [e.scenario, i]));
  const sorted = (m: Map<string, Set<string>>) =>
    new Map([...m].map(([k, v]) => [k, [...v].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))]));
  return { events: sorted(events), statuses: sorted(statuses) };
}

/** The two tables of docs/sandbox.md, each between its markers. */
export function docsTables(c: Coverage): { events: string; statuses: string } {
  const cell = (list: string[] | undefined) => (list && list.length > 0 ? list.map((s) => `\`${s}\``).join(', ') : '**none**');
  const eventRows = REQUIRED_EVENTS.map((name) => `| \`${name}\` | ${cell(c.events.get(name))} |`);
  const statusRows = REQUIRED_STATUSES.map((s) => `| \`${s}\` | ${cell(c.statuses.get(s))} |`);
  return {
    events: ['| event | scenario(s) |', '|---|---|', ...eventRows].join('\n'),
    statuses: ['| status | scenario(s) |', '|---|---|', ...statusRows].join('\n'),
  };
}

/** The text between two markers of a document, or null when a marker is missing. */
export function between(doc: string, start: string, end: string): string | null {
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) return null;
  return doc.slice(a + start.length, b).trim();
}

/** The document with the text between two (present) markers replaced. */
export function replaceBetween(doc: string, start: string, end: string, text: string): string {
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`markers ${start} … ${end} not found`);
  return `${doc.slice(0, a + start.length)}\n${text}\n${doc.slice(b)}`;
}

// The transport plan: vehicles (groups), their stops (calls), and which stops board or land the cargo.
import type { BillOfLadingPorts, Call, Group, Mode, Norm, Plan, Sides } from './model.js';
import type { WaterOrLand } from './codes.js';
import { actionOf, stopMovement } from './milestones.js';
import { byCallTime, cmp, first, last, portOf, vehicleRank } from './values.js';

export const LEG_KIND: Record<Mode, WaterOrLand | null> = {
  vessel: 'main',
  barge: 'feeder',
  feeder: 'feeder',
  rail: 'rail',
  truck: null,
  multimodal: null,
};

export const WATER: ReadonlySet<Mode> = new Set<Mode>(['vessel', 'barge', 'feeder']);

/** An equipment LOAD/DISC of an empty box: repositioning, no part of the cargo's journey. */
export function isEmptyMove(e: Norm): boolean {
  const action = actionOf(e);
  return (action === 'loaded' || action === 'discharged') && e.empty === 'empty';
}

export function buildPlan(events: Norm[], ports: BillOfLadingPorts | null): Plan {
  const groups = new Map<string, Group>();
  const calls = new Map<string, Call>();
  const callOf = new Map<Norm, Call>();

  // Events at one transport call do not all repeat the vessel block; the call id says they share a vehicle,
  // so each call id gets the strongest identity any of its events gives (IMO, then name, then voyage).
  const vehicleByCallId = new Map<string, string>();
  for (const event of events) {
    const { id, vehicle } = event.call ?? {};
    if (!id || !vehicle) continue;
    const current = vehicleByCallId.get(id);
    if (!current || vehicleRank(vehicle) < vehicleRank(current) || (vehicleRank(vehicle) === vehicleRank(current) && vehicle < current)) {
      vehicleByCallId.set(id, vehicle);
    }
  }

  const join = (event: Norm, call: Call) => {
    callOf.set(event, call);
    call.events.push(event);
    call.minMs = Math.min(call.minMs, event.ms);
    call.maxMs = Math.max(call.maxMs, event.ms);
    const action = actionOf(event);
    if (action === 'loaded') call.load = true;
    if (action === 'discharged') call.disc = true;
    if (action === 'loaded' || action === 'discharged') call.group.laden++;
    if (action === 'arrived') call.arr = true;
    if (action === 'departed') call.dep = true;
  };

  for (const event of events) {
    const ref = event.call;
    if (!ref?.mode) continue;
    const vehicle = (ref.id && vehicleByCallId.get(ref.id)) || ref.vehicle;
    // One ship is one leg whatever water word an event uses for it (a carrier may write FEEDER on some events and
    // VESSEL on others); a voyage number alone is too weak an identity to join two modes on.
    const named = vehicle !== null && !vehicle.startsWith('voyage:');
    const groupKey = `${WATER.has(ref.mode) && named ? 'water' : ref.mode}|${vehicle ?? ''}`;
    let group = groups.get(groupKey);
    if (!group) {
      group = { key: groupKey, mode: null, modes: new Set(), kind: null, calls: [], firstMs: Number.POSITIVE_INFINITY, laden: 0, empty: 0 };
      groups.set(groupKey, group);
    }
    group.modes.add(ref.mode);
    // An empty box's load or discharge makes no stop of the cargo's: the vehicle only counts it.
    if (isEmptyMove(event)) {
      group.empty++;
      continue;
    }
    const callKey = `${groupKey}@${ref.locode ?? (ref.id ? `id:${ref.id}` : '?')}`;
    let call = calls.get(callKey);
    if (!call) {
      call = {
        key: callKey,
        group,
        ref,
        vessel: null,
        locode: ref.locode,
        place: ref.place,
        seq: ref.seq,
        minMs: Number.POSITIVE_INFINITY,
        maxMs: Number.NEGATIVE_INFINITY,
        events: [],
        load: false,
        disc: false,
        arr: false,
        dep: false,
        board: false,
        alight: false,
      };
      calls.set(callKey, call);
      group.calls.push(call);
    }
    call.seq ??= ref.seq;
    call.vessel ??= ref.vessel;
    // Transport events name the port call itself; prefer their place over an equipment event's yard.
    if (event.eventType === 'transport' && ref.place && call.events.every((e) => e.eventType !== 'transport')) call.place = ref.place;
    call.place ??= ref.place;
    join(event, call);
  }

  for (const g of groups.values()) {
    // The most specific word any event uses for the vehicle: a carrier's FEEDER, then BARGE, then what is left.
    g.mode = g.modes.has('feeder') ? 'feeder' : g.modes.has('barge') ? 'barge' : ([...g.modes][0] ?? null);
    // A vehicle that only moved the box empty (repositioning before it was stuffed, or after it was stripped) is
    // no leg of the cargo's.
    g.kind = g.mode === null || g.calls.length === 0 || (g.empty > 0 && g.laden === 0) ? null : LEG_KIND[g.mode];
  }

  // A load or discharge without a transport call (allowed in 3.0) belongs to the stop at the same place, if
  // any vehicle stops there; otherwise there is no telling which vehicle it was, and it is skipped.
  for (const event of events) {
    if (event.call || !event.place?.locode || isEmptyMove(event)) continue;
    const action = actionOf(event);
    if (action !== 'loaded' && action !== 'discharged') continue;
    const candidates = [...calls.values()].filter((c) => c.locode === event.place?.locode && c.group.kind !== null);
    candidates.sort((a, b) => Math.abs(a.minMs - event.ms) - Math.abs(b.minMs - event.ms) || cmp(a.key, b.key));
    if (candidates[0]) join(event, candidates[0]);
  }

  const ordered = [...groups.values()].filter((g) => g.calls.length > 0);
  for (const g of ordered) {
    g.calls.sort(g.calls.every((c) => c.seq !== null) ? (a, b) => a.seq! - b.seq! || byCallTime(a, b) : byCallTime);
    g.firstMs = Math.min(...g.calls.map((c) => c.minMs));
  }
  ordered.sort((a, b) => a.firstMs - b.firstMs || cmp(a.key, b.key));

  // BARGE is inland water transport and FEEDER a carrier's own word: either is a feeder once a sea-going VESSEL
  // leg exists (without one, the barge legs are the journey's main legs).
  const hasVessel = ordered.some((g) => g.mode === 'vessel' && g.kind !== null);
  for (const g of ordered) if (g.kind === 'feeder' && !hasVessel) g.kind = 'main';

  for (const g of ordered) {
    if (g.kind === null) continue;
    const earlier = ordered.some(
      (o) => o !== g && o.kind !== null && (o.firstMs < g.firstMs || (o.firstMs === g.firstMs && o.key < g.key)),
    );
    assignRoles(g, earlier);
  }

  // POL and POD as DCSA defines them: where the cargo boards the first and leaves the last sea-going vessel. A
  // VESSEL leg is a feeder only when the bill of lading's own ports (its arrival notice) put it before the POL
  // or after the POD: water pre- or on-carriage. Nothing else moves them.
  const mainCalls = () => ordered.filter((g) => g.kind === 'main').flatMap((g) => g.calls);
  let main = mainCalls();
  let pol = first(
    main.filter((c) => c.board),
    byCallTime,
  );
  let pod = last(
    main.filter((c) => c.alight),
    byCallTime,
  );
  let statedPol: Call | null = null;
  let statedPod: Call | null = null;
  if (ports) {
    const sea = main.filter((c) => c.group.mode === 'vessel');
    statedPol = ports.pol
      ? first(
          sea.filter((c) => c.board && c.locode === ports.pol),
          byCallTime,
        )
      : null;
    statedPod = ports.pod
      ? last(
          sea.filter((c) => c.alight && c.locode === ports.pod),
          byCallTime,
        )
      : null;
    for (const g of ordered) {
      if (g.kind !== 'main' || g.mode !== 'vessel') continue;
      const moves = g.calls.filter((c) => c.board || c.alight);
      if (moves.length === 0) continue;
      const before = statedPol !== null && g !== statedPol.group && Math.min(...moves.map((c) => c.minMs)) < statedPol.minMs;
      const after = statedPod !== null && g !== statedPod.group && Math.max(...moves.map((c) => c.maxMs)) > statedPod.maxMs;
      if (before || after) g.kind = 'feeder';
    }
    main = mainCalls();
    pol =
      statedPol ??
      first(
        main.filter((c) => c.board),
        byCallTime,
      );
    pod =
      statedPod ??
      last(
        main.filter((c) => c.alight),
        byCallTime,
      );
  }

  // A 3.0 carrier that calls the structural POL's loads (POD's discharges) a transshipment says the B/L's port is
  // another one that the events do not show yet (the data starts or ends mid-journey): unknown, not this one.
  if (pol && pol !== statedPol && stopMovement(pol, 'loaded') === 'transshipment') pol = null;
  if (pod && pod !== statedPod && stopMovement(pod, 'discharged') === 'transshipment') pod = null;

  const classified = ordered.filter((g) => g.kind !== null).flatMap((g) => g.calls);
  const polPort = pol ? portOf(pol) : null;
  const polBoards = polPort ? main.filter((c) => c.board && portOf(c) === polPort) : [];
  const finalStop = last(
    classified.filter((c) => c.alight),
    byCallTime,
  );
  const destination =
    pod && finalStop && finalStop.group.kind !== 'main' && finalStop.minMs > pod.minMs && portOf(finalStop) !== portOf(pod)
      ? finalStop
      : null;

  return {
    callOf,
    pol,
    pod,
    destination,
    polLimitMs: polBoards.length ? Math.max(...polBoards.map((c) => c.maxMs)) : null,
    global: sidesOf(
      classified.filter((c) => c.board),
      classified.filter((c) => c.alight),
    ),
    byContainer: containerSides(events, callOf),
    offDockMoves: offDockMoves(events),
  };
}

/**
 * Which stops of one vehicle board the cargo and which land it. Equipment events say so directly (LOAD,
 * DISC). Without them the first stop boards and the last one lands; a vehicle seen at one stop only boards
 * if it departs from there and is the first leg, else lands.
 */
export function assignRoles(g: Group, hasEarlierLeg: boolean): void {
  const calls = g.calls;
  for (const c of calls) {
    c.board = c.load;
    c.alight = c.disc;
  }
  const boards = calls.filter((c) => c.board);
  const alights = calls.filter((c) => c.alight);
  if (boards.length === 0 && alights.length === 0) {
    if (calls.length >= 2) {
      calls[0]!.board = true;
      calls[calls.length - 1]!.alight = true;
    } else if (calls[0]) {
      const only = calls[0];
      only.board = only.dep && !(only.arr && hasEarlierLeg);
      only.alight = only.arr && !only.board;
    }
    return;
  }
  if (boards.length === 0 && calls.indexOf(alights[0]!) > 0) calls[0]!.board = true;
  if (alights.length === 0 && calls.indexOf(boards[boards.length - 1]!) < calls.length - 1) calls[calls.length - 1]!.alight = true;
}

export function sidesOf(boards: Call[], alights: Call[]): Sides {
  const firstBoard = first(boards, byCallTime);
  const firstAlight = first(alights, byCallTime);
  const lastBoard = last(boards, byCallTime);
  const lastAlight = last(alights, byCallTime);
  return {
    exportUntilMs: firstBoard?.maxMs ?? firstAlight?.minMs ?? Number.POSITIVE_INFINITY,
    importFromMs: lastAlight && (!lastBoard || lastAlight.minMs >= lastBoard.minMs) ? lastAlight.minMs : null,
  };
}

/** Sides per container from its own loads and discharges: containers of one B/L can sail apart. */
export function containerSides(events: Norm[], callOf: Map<Norm, Call>): Map<string, Sides> {
  const moves = new Map<string, { boards: Call[]; alights: Call[] }>();
  for (const event of events) {
    const call = callOf.get(event);
    if (!event.container || !call || call.group.kind === null) continue;
    const action = actionOf(event);
    if (action !== 'loaded' && action !== 'discharged') continue;
    const m = moves.get(event.container) ?? { boards: [], alights: [] };
    (action === 'loaded' ? m.boards : m.alights).push(call);
    moves.set(event.container, m);
  }
  return new Map([...moves].map(([container, m]) => [container, sidesOf(m.boards, m.alights)]));
}

/** A laden box gated in or out at an off-dock yard, as a fact (estimates of a move there decide nothing). */
export function isOffDockMove(e: Norm): boolean {
  return (
    e.eventType === 'equipment' &&
    (e.equipment === 'gated_in' || e.equipment === 'gated_out') &&
    e.empty === 'laden' &&
    e.facilityType === 'off_dock' &&
    e.classifier === 'actual' &&
    e.container !== null
  );
}

export function offDockMoves(events: Norm[]): Map<string, number[]> {
  const moves = new Map<string, number[]>();
  for (const e of events) if (isOffDockMove(e)) moves.set(e.container!, [...(moves.get(e.container!) ?? []), e.ms]);
  return moves;
}

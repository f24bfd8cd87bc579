// Events to milestones: which milestone each DCSA event is, given the transport plan it belongs to.
import type { Call, CallRef, Mode, Norm, Plan } from './model.js';
import type { Milestone, TransportMode } from '../../../domain/milestones.js';
import type { MilestoneFact } from '../../contract.js';
import {
  type InternalCode,
  LEG_MILESTONES,
  PLACE_FREE_EQUIPMENT_MILESTONES,
  SHIPMENT_MILESTONES,
  TRANSSHIPMENT_MILESTONES,
} from './codes.js';

import { portOf } from './values.js';

export type Action = 'loaded' | 'discharged' | 'arrived' | 'departed';

export function actionOf(e: Norm): Action | null {
  if (e.eventType === 'transport') return e.transport === 'arrived' || e.transport === 'departed' ? e.transport : null;
  if (e.eventType === 'equipment') return e.equipment === 'loaded' || e.equipment === 'discharged' ? e.equipment : null;
  return null;
}

export function milestoneOf(e: Norm, plan: Plan): MilestoneFact | null {
  if (!e.classifier) return null;
  const fact = (milestone: Milestone, extra: Partial<MilestoneFact> = {}): MilestoneFact => ({
    milestone,
    classifier: e.classifier!,
    when: e.when,
    place: e.place,
    vessel: null,
    voyage: null,
    mode: null,
    containerNumber: e.eventType === 'transport' ? null : e.container,
    railCarrierScac: null,
    sourceCode: e.sourceCode,
    sourceEventId: e.id,
    reportedAt: e.reportedAt,
    ...extra,
  });

  const action = actionOf(e);
  if (action) {
    const call = plan.callOf.get(e);
    const kind = call?.group.kind;
    if (!call || !kind) return null;
    const boarding = action === 'loaded' || action === 'departed';
    if (boarding ? !call.board : !call.alight) return null;
    let milestone: Milestone = kind === 'main' ? mainMilestone(e, call, action, plan) : LEG_MILESTONES[kind][action];
    if (action === 'arrived' && e.facilityType === 'berth') {
      // Alongside at the POD is the berthing, not a second arrival. Elsewhere there is no berthing milestone:
      // the berth arrival stands for the arrival only when the carrier gives no other of that kind.
      if (milestone === 'vessel_arrived') milestone = 'vessel_berthed';
      else if (call.events.some((x) => x !== e && actionOf(x) === 'arrived' && x.facilityType !== 'berth' && x.classifier === e.classifier))
        return null;
    }
    // The cargo leaves a stop on the export voyage and reaches one on the import voyage.
    const voyageOf = (r: CallRef | null) =>
      r ? (boarding ? (r.exportVoyage ?? r.importVoyage) : (r.importVoyage ?? r.exportVoyage)) : null;
    return fact(milestone, {
      place: e.place ?? call.place,
      mode: transportMode(call.group.mode),
      vessel: kind === 'rail' ? null : (e.call?.vessel ?? call.vessel),
      voyage: voyageOf(e.call) ?? voyageOf(call.ref),
    });
  }

  if (e.eventType === 'equipment' && e.equipment) {
    const placeFree = PLACE_FREE_EQUIPMENT_MILESTONES[e.equipment];
    if (placeFree) return fact(placeFree);
    const gate = gateMilestone(e, plan);
    // Carriers often hang the outbound vessel's call on a gate-in; only a TRUCK call says how the box moved.
    return gate ? fact(gate, { mode: e.call?.mode === 'truck' ? 'truck' : null }) : null;
  }

  if (e.eventType === 'shipment') {
    const rule = SHIPMENT_MILESTONES.find((r) => r.status === e.shipment && r.document === e.shipmentDocument);
    return rule ? fact(rule.milestone) : null;
  }
  return null;
}

/**
 * A main leg's stop is the B/L's (vessel_*) or a transshipment's. The carrier's own classification decides where
 * it gives one (3.0 `movementType`/`transportPhase`: EXPORT or IMPORT → vessel_*, TRANSSHIPMENT →
 * transshipment_*); an arrival or departure takes that of the discharges or loads at its stop. Otherwise the port
 * does: loads and departures at the POL and arrivals and discharges at the POD are vessel_*, all others
 * transshipment_* (by port, not by leg: two vessels from the same POL both load there).
 */
export function mainMilestone(e: Norm, call: Call, action: Action, plan: Plan): Milestone {
  const boarding = action === 'loaded' || action === 'departed';
  const phase = e.movement ?? stopMovement(call, boarding ? 'loaded' : 'discharged');
  if (phase === 'transshipment') return TRANSSHIPMENT_MILESTONES[action];
  if (phase === 'export' || phase === 'import') return LEG_MILESTONES.main[action];
  const home = boarding ? plan.pol : plan.pod;
  return home && portOf(home) === portOf(call) ? LEG_MILESTONES.main[action] : TRANSSHIPMENT_MILESTONES[action];
}

/** The one movement the carrier gives the stop's loads (or discharges), if they agree on one. */
export function stopMovement(call: Call, action: 'loaded' | 'discharged'): InternalCode<'movement'> | null {
  const phases = new Set(call.events.filter((x) => actionOf(x) === action && x.movement !== null).map((x) => x.movement));
  return phases.size === 1 ? [...phases][0]! : null;
}

/**
 * Gate moves are named by which side of the sea leg they are on: an empty out before the first load is the
 * empty pick-up, a laden in at the POL before it sails is `full_in`, a laden out after the last discharge is
 * the pick-up for delivery and an empty in after it is the return. Anything else (an empty returned unused,
 * a laden gate-out at a transshipment terminal) has no canonical name and is skipped.
 */
export function gateMilestone(e: Norm, plan: Plan): Milestone | null {
  if (e.equipment !== 'gated_in' && e.equipment !== 'gated_out') return null;
  const sides = (e.container && plan.byContainer.get(e.container)) || plan.global;
  const afterLastDischarge = sides.importFromMs !== null && e.ms >= sides.importFromMs;
  if (e.equipment === 'gated_out' && e.empty === 'empty') return e.ms <= sides.exportUntilMs ? 'empty_out' : null;
  if (e.equipment === 'gated_out' && e.empty === 'laden') {
    if (!afterLastDischarge) return null;
    // Out of the marine terminal and then in at an off-dock yard is a transfer; the pick-up is the gate-out there.
    const offDock = (e.container && plan.offDockMoves.get(e.container)) || [];
    if (e.facilityType !== 'off_dock' && offDock.some((ms) => ms > e.ms)) return null;
    return 'full_out';
  }
  if (e.equipment === 'gated_in' && e.empty === 'empty') return afterLastDischarge ? 'empty_in' : null;
  if (e.equipment === 'gated_in' && e.empty === 'laden') {
    if (!plan.pol || plan.polLimitMs === null) return e.ms <= sides.exportUntilMs ? 'full_in' : null;
    const there = e.place?.locode ?? null;
    return (there === null || there === plan.pol.locode) && e.ms <= plan.polLimitMs ? 'full_in' : null;
  }
  return null;
}

export function transportMode(mode: Mode | null): TransportMode | null {
  switch (mode) {
    case 'vessel':
    case 'feeder':
      return 'vessel';
    case 'barge':
      return 'barge';
    case 'rail':
      return 'rail';
    case 'truck':
      return 'truck';
    default:
      return null;
  }
}

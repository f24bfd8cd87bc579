// What happens to a box in the POD yard: holds and their release, availability, free time, fees, appointments.
import { makeContainerNumber } from '../../domain/container-number.js';
import type { HoldName } from '../../domain/milestones.js';
import { Rng, unit } from './random.js';
import {
  addWorkingDays,
  demurrageStartsAt,
  extendedDwellStartsAt,
  lineLastFreeDay,
  nextGateTime,
  terminalLastFreeDay,
  terminalRules,
} from './terminal-rules.js';
import { addDays, DAY, HOUR, localDate, localMidnight, MINUTE, roundTo } from './time.js';

import type { DatedValue, HoldPlan, StoryEquipment, YardPlan } from './story-types.js';
import { CHASSIS_PREFIXES, NO_EMPTY_RETURN, OFF_DOCK_YARDS, SOON_AT_POD } from './story-rules.js';
import type { JourneyBuilder } from './journey.js';
import { podTerminalAt } from './story-places.js';

/** `callDone`: when the vessel call that discharged the box completed (it leaves the berth). */
export function yardPlan(
  b: JourneyBuilder,
  eq: StoryEquipment,
  arrivedAt: number,
  dischargedAt: number,
  callDone: number,
  byRail: boolean,
): YardPlan {
  const { rng, story } = b;
  const sc = story.scenario;
  const tz = story.pod!.timeZone;
  const knownAt = roundTo(arrivedAt - rng.range(4, 6) * DAY, MINUTE);
  const holds: HoldPlan[] = [];
  const hold = (name: HoldName, status: 'hold' | 'pending', from: number, to: number, description: string | null) => {
    if (to - from >= HOUR) holds.push({ name, status, from: roundTo(from, MINUTE), to: roundTo(to, MINUTE), description });
  };
  if (rng.chance(0.55))
    hold('freight', 'hold', knownAt, dischargedAt + rng.range(-48, 30) * HOUR, 'Freight charges not yet released by the line');
  let exam: YardPlan['exam'] = null;
  if (sc === 'holds') {
    const from = dischargedAt + rng.range(6, 18) * HOUR;
    const to = dischargedAt + rng.range(3, 7) * DAY;
    hold('customs', 'hold', from, to, 'CBP hold');
    const examFrom = from + rng.range(12, 30) * HOUR;
    hold('VACIS', 'hold', examFrom, to - rng.range(6, 20) * HOUR, 'VACIS exam ordered');
    exam = { from: roundTo(examFrom, MINUTE), amount: roundTo(rng.range(300, 900), 5) };
  } else if (sc === 'exam_long_stay') {
    // An intensive exam: CBP holds the box, the terminal bills the exam, and the box waits days for it.
    const from = dischargedAt + rng.range(6, 18) * HOUR;
    hold('customs', 'hold', from, dischargedAt + rng.range(4, 6) * DAY, 'CBP intensive exam');
    exam = { from: roundTo(from + rng.range(12, 30) * HOUR, MINUTE), amount: roundTo(rng.range(900, 1800), 5) };
  } else if (!byRail && !SOON_AT_POD.has(sc)) {
    if (rng.chance(0.1)) hold('customs', 'pending', knownAt, dischargedAt + rng.range(2, 20) * HOUR, 'Awaiting customs release');
    else if (rng.chance(0.15))
      hold('customs', 'hold', dischargedAt + rng.range(2, 12) * HOUR, dischargedAt + rng.range(1, 3) * DAY, 'CBP hold');
    if (rng.chance(0.04)) hold('USDA', 'hold', dischargedAt + 4 * HOUR, dischargedAt + rng.range(1, 4) * DAY, 'USDA inspection');
    if (rng.chance(0.03)) {
      const from = dischargedAt + rng.range(10, 30) * HOUR;
      hold('VACIS', 'hold', from, from + rng.range(1, 3) * DAY, 'VACIS exam ordered');
      exam = { from: roundTo(from, MINUTE), amount: roundTo(rng.range(300, 900), 5) };
    }
  }
  const teu: 1 | 2 = eq.isoSizeType.startsWith('2') ? 1 : 2;
  let tmf: YardPlan['tmf'] = null;
  if (!byRail && (story.pod!.locode === 'USLAX' || story.pod!.locode === 'USLGB') && rng.chance(0.7)) {
    const to = dischargedAt + rng.range(4, 40) * HOUR;
    hold('TMF', 'hold', dischargedAt, to, 'Traffic Mitigation Fee unpaid');
    tmf = { from: roundTo(dischargedAt, MINUTE), to: roundTo(to, MINUTE), amount: 37.5 * teu };
  }
  const holdsClear = Math.max(dischargedAt, ...holds.map((h) => h.to));

  // Last free days: the terminal's by its rule from the completion of the vessel call (one date for every box of
  // the call); a box bound for rail gets two days to make its train. The line's equals it or is longer by contract
  // (one draw per bill of lading).
  const rules = terminalRules(podTerminalAt(story, dischargedAt)!);
  const dischargeDate = localDate(dischargedAt, tz);
  const terminalDate = byRail ? addDays(dischargeDate, 2) : terminalLastFreeDay(rules, callDone);
  const terminalLfd: DatedValue[] = [{ from: dischargedAt, date: terminalDate }];
  const lineDraw = unit(b.seed, story.carrierScac, story.number, 'line-free-time');
  const lineLfd: DatedValue[] = [{ from: dischargedAt, date: lineLastFreeDay(terminalDate, story.carrierScac, lineDraw) }];
  if (sc === 'lfd_change') {
    const at = roundTo(dischargedAt + rng.range(30, 54) * HOUR, MINUTE);
    const extended = rules.counting === 'working_days' ? addWorkingDays(rules.holidays, terminalDate, 2) : addDays(terminalDate, 2);
    terminalLfd.push({ from: at, date: extended });
    const line = addDays(lineLfd[0]!.date, 3);
    lineLfd.push({ from: at + 6 * HOUR, date: line > extended ? line : extended });
  }

  let availableAt: number | null = null;
  let fullOutAt: number | null = null;
  let emptyInAt: number | null = null;
  let railLoadedAt: number | null = null;
  const appointments: YardPlan['appointments'] = [];
  let offDock: YardPlan['offDock'] = null;
  let availabilityPending = false;
  if (byRail) {
    railLoadedAt = roundTo(Math.max(holdsClear + 2 * HOUR, dischargedAt + rng.range(18, 60) * HOUR), MINUTE);
  } else {
    availableAt = roundTo(Math.max(holdsClear + rng.range(0.5, 3) * HOUR, dischargedAt + rng.range(2, 8) * HOUR), MINUTE);
    // The terminal says nothing of availability until it has processed the box (the engine's `grounded`): in
    // multi_container for most of a day, in some ordinary stories for a few hours.
    if (sc === 'multi_container') {
      availableAt = Math.max(availableAt, roundTo(dischargedAt + rng.range(16, 30) * HOUR, MINUTE));
      availabilityPending = true;
    } else if (sc === 'ordinary' && rng.chance(0.25)) availabilityPending = true;
    const lfdEnd = demurrageStartsAt(rules, terminalLfd.at(-1)!.date);
    let pickup =
      sc === 'fees'
        ? lfdEnd + rng.range(4.2, 6) * DAY
        : sc === 'exam_long_stay'
          ? Math.max(lfdEnd, dischargedAt + 9 * DAY) + rng.range(2.2, 4) * DAY
          : sc === 'pickup_appointment'
            ? availableAt + rng.range(2.5, 4) * DAY
            : availableAt + rng.range(0.3, 4.5) * DAY;
    if (sc === 'hold_other') {
      // Offered, then held for a reason of the terminal's own (no named kind: `other`), then offered again.
      const from = roundTo(availableAt + rng.range(6, 12) * HOUR, MINUTE);
      const to = roundTo(from + rng.range(20, 30) * HOUR, MINUTE);
      holds.push({ name: 'other', status: 'hold', from, to, description: 'Documentation hold: commercial invoice missing' });
      pickup = Math.max(pickup, to + rng.range(6, 30) * HOUR);
    }
    if (sc === 'off_dock') {
      // Moved to the port's off-dock yard within a day of discharge; offered for pickup there.
      const at = roundTo(dischargedAt + rng.range(8, 20) * HOUR, MINUTE);
      offDock = { at, key: OFF_DOCK_YARDS[story.pod!.locode]!, yardLocation: `OD-${rng.int(1, 9)}-${rng.int(10, 99)}` };
      availableAt = Math.max(availableAt, at + rng.range(2, 6) * HOUR);
      pickup = availableAt + rng.range(0.5, 2.5) * DAY;
    }
    // The LFD changes while the box is still in the yard.
    if (sc === 'lfd_change') pickup = Math.max(pickup, lineLfd.at(-1)!.from + rng.range(1, 3) * DAY);
    // Trucks come and go in the terminal's gate hours.
    fullOutAt = nextGateTime(rules, roundTo(Math.max(pickup, availableAt + 2 * HOUR), MINUTE), rng.range(0.5, 6) * HOUR);
    emptyInAt = NO_EMPTY_RETURN.has(sc)
      ? null
      : nextGateTime(rules, roundTo(fullOutAt + rng.range(2, 9) * DAY, MINUTE), rng.range(0.5, 6) * HOUR);
    const slot = Math.floor(fullOutAt / HOUR) * HOUR;
    if (sc === 'pickup_appointment') {
      // Booked for a slot a day earlier, rescheduled before that slot to the one the box leaves in.
      const booked = roundTo(availableAt + rng.range(1, 4) * HOUR, MINUTE);
      const moved = roundTo(rng.range(booked + 2 * HOUR, slot - DAY - 2 * HOUR), MINUTE);
      appointments.push({ from: booked, at: slot - DAY }, { from: moved, at: slot });
    } else if (rng.chance(0.8)) {
      const from = roundTo(Math.max(availableAt + 30 * MINUTE, fullOutAt - rng.range(20, 72) * HOUR), MINUTE);
      if (from < slot) appointments.push({ from, at: slot });
    }
  }
  const end = fullOutAt ?? railLoadedAt!;
  const flickers: YardPlan['flickers'] = [];
  if (sc === 'flicker') {
    const from = roundTo(dischargedAt + rng.range(26, 40) * HOUR, MINUTE);
    const to = from + roundTo(rng.range(12, 18) * HOUR, MINUTE);
    flickers.push({ field: 'lastFreeDay', from, to }, { field: 'yardLocation', from, to });
  } else if (end - dischargedAt > 2 * DAY && rng.chance(0.04)) {
    const from = roundTo(rng.range(dischargedAt + 6 * HOUR, end - 30 * HOUR), MINUTE);
    flickers.push({ field: 'yardLocation', from, to: from + 12 * HOUR });
  }
  const location = yardLocation(b);
  const plan: YardPlan = {
    container: eq.number,
    knownAt,
    arrivedAt,
    dischargedAt,
    availableAt,
    fullOutAt,
    emptyInAt,
    railLoadedAt,
    holds,
    terminalLfd,
    lineLfd,
    appointments,
    offDock,
    availabilityPending,
    yardLocation: location,
    chassisNumber: makeContainerNumber(rng.pick(CHASSIS_PREFIXES), rng.int(0, 999_999)),
    flickers,
    exam,
    tmf,
    teu,
  };
  for (const t of [
    knownAt,
    arrivedAt,
    dischargedAt,
    availableAt,
    fullOutAt,
    emptyInAt,
    railLoadedAt,
    ...appointments.map((a) => a.from),
    offDock?.at,
    exam?.from,
    tmf?.from,
    tmf?.to,
  ]) {
    if (t != null) b.breaks.add(t);
  }
  for (const h of holds) b.breaks.add(h.from).add(h.to);
  for (const v of [...terminalLfd, ...lineLfd]) b.breaks.add(v.from);
  for (const f of flickers) b.breaks.add(f.from).add(f.to);
  // Demurrage grows a day at a time after each LFD version's end, until the box leaves; dwell fees after 9 days.
  if (fullOutAt !== null) {
    for (const v of terminalLfd) {
      for (let k = 1; k <= 61; k++) {
        const t = localMidnight(addDays(v.date, k), tz);
        if (t > fullOutAt) break;
        b.breaks.add(t);
      }
    }
    const dwellFrom = extendedDwellStartsAt(rules, dischargedAt);
    if (dwellFrom !== null) for (let t = dwellFrom; t <= fullOutAt; t += DAY) b.breaks.add(t);
  }
  return plan;
}

function yardLocation(b: JourneyBuilder): string {
  const { rng } = b;
  const style = new Rng('yard-style', b.story.podTerminals[0]!.key).int(0, 2);
  const letter = String.fromCharCode(65 + rng.int(0, 7));
  if (style === 0) return `${letter}${rng.int(10, 60)}-${String(rng.int(1, 40)).padStart(2, '0')}-${rng.int(1, 5)}`;
  if (style === 1) return `Yard ${letter}-${rng.int(1, 30)}`;
  return `Row ${rng.int(1, 80)} Bay ${rng.int(1, 40)} Tier ${rng.int(1, 5)}`;
}

// The documented sandbox numbers: each maps to a scenario whose timeline is placed relative to the anchor so
// that its interesting part happens within 60 world days. Every other well-formed number tells an ordinary story.
import { makeContainerNumber } from '../../domain/container-number.js';
import type { NumberType } from '../../sources/contract.js';

export const SCENARIO_NAMES = [
  'ordinary',
  'succeeded',
  'multi_container',
  'transshipment',
  'rail',
  'holds',
  'fees',
  'terminal_change',
  'lfd_change',
  'flicker',
  'awaiting_manifest',
  'expired',
  'flaky',
  'retries_exhausted',
  'not_found',
  'invalid_number',
  'booking_cancelled',
  'scac_auto_detect_failed',
  'date_only',
  'no_seal_no_weight',
  'container',
  'test_succeeded',
  'test_failed',
  'booked_ahead',
  'feeder',
  'off_dock',
  'pickup_appointment',
  'exam_long_stay',
  'hold_other',
  'line_silent',
  'never_returned',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export type ExpectedOutcome =
  | 'created'
  | 'awaiting_manifest_then_created'
  | 'retrying_then_created'
  | 'failed:expired'
  | 'failed:retries_exhausted'
  | 'failed:not_found'
  | 'failed:invalid_number'
  | 'failed:booking_cancelled'
  | 'failed:scac_auto_detect_failed';

export interface SandboxExample {
  scenario: ScenarioName;
  scac: string | null;
  request_type: NumberType;
  request_number: string;
  expected_outcome: ExpectedOutcome;
  description: string;
}

// biome-ignore format: one example per line
export const SANDBOX_EXAMPLES: readonly SandboxExample[] = Object.freeze([
  { scenario: 'succeeded', scac: 'MAEU', request_type: 'bill_of_lading', request_number: 'MAEU240100001', expected_outcome: 'created', description: 'One container on a direct sailing, mid-voyage at first sight; arrives within about ten days and runs to the empty return.' },
  { scenario: 'multi_container', scac: 'MSCU', request_type: 'bill_of_lading', request_number: 'MEDU240200002', expected_outcome: 'created', description: 'A bill of lading with four to six containers, each with its own events, weights and seals.' },
  { scenario: 'transshipment', scac: 'CMDU', request_type: 'bill_of_lading', request_number: 'CMDU240300003', expected_outcome: 'created', description: 'Feeder or relay leg to a hub, transshipment there, then the mother vessel to the POD.' },
  { scenario: 'rail', scac: 'HLCU', request_type: 'bill_of_lading', request_number: 'HLCU240400004', expected_outcome: 'created', description: 'Discharged at Los Angeles/Long Beach, BNSF to Chicago, interchange to CSX, inland to Ohio: rail loaded, departed, arrived (interchange and destination), unloaded, available, full out, empty in — all within 60 days.' },
  { scenario: 'holds', scac: 'ONEY', request_type: 'bill_of_lading', request_number: 'ONEY240500005', expected_outcome: 'created', description: 'A customs hold (and a VACIS exam, with its fee where the terminal gives fees) appears after discharge and clears a few days later.' },
  { scenario: 'fees', scac: 'COSU', request_type: 'bill_of_lading', request_number: 'COSU240600006', expected_outcome: 'created', description: 'Picked up days after the terminal LFD: demurrage grows day by day at a tiered rate; the terminal also gives a separate total line.' },
  { scenario: 'terminal_change', scac: 'OOLU', request_type: 'bill_of_lading', request_number: 'OOLU240700007', expected_outcome: 'created', description: 'The POD terminal changes while the vessel is at sea.' },
  { scenario: 'lfd_change', scac: 'SAFM', request_type: 'bill_of_lading', request_number: 'SAFM240800008', expected_outcome: 'created', description: 'The terminal extends its last free day about two days after discharge; the line (which gives its own LFD) extends its own six hours later.' },
  { scenario: 'flicker', scac: 'HDMU', request_type: 'bill_of_lading', request_number: 'HDMU240900009', expected_outcome: 'created', description: 'The terminal reports its LFD and yard location, withdraws them for half a day, then reports them again.' },
  { scenario: 'awaiting_manifest', scac: 'APLU', request_type: 'bill_of_lading', request_number: 'APLU241000010', expected_outcome: 'awaiting_manifest_then_created', description: 'Not manifested for the first three world days after first sight, then tracked normally.' },
  { scenario: 'expired', scac: 'WHLC', request_type: 'bill_of_lading', request_number: 'WHLC241100011', expected_outcome: 'failed:expired', description: 'Never manifested: awaiting manifest forever, so the request expires after seven days.' },
  { scenario: 'flaky', scac: 'SEAU', request_type: 'bill_of_lading', request_number: 'SEAU241200012', expected_outcome: 'retrying_then_created', description: 'The carrier answers 503 for the first twelve world hours, then normally.' },
  { scenario: 'retries_exhausted', scac: 'KMTU', request_type: 'bill_of_lading', request_number: 'KMTC241300013', expected_outcome: 'failed:retries_exhausted', description: 'The carrier answers 503 forever.' },
  { scenario: 'not_found', scac: 'MAEU', request_type: 'container', request_number: makeContainerNumber('MSKU', 241400), expected_outcome: 'failed:not_found', description: 'A valid container number the carrier does not know.' },
  { scenario: 'invalid_number', scac: 'MSCU', request_type: 'bill_of_lading', request_number: 'MEDU00000000', expected_outcome: 'failed:invalid_number', description: 'A bill of lading number the carrier rejects as malformed.' },
  { scenario: 'booking_cancelled', scac: 'HLCU', request_type: 'booking_number', request_number: 'HLCU241500015', expected_outcome: 'failed:booking_cancelled', description: 'The booking was cancelled.' },
  { scenario: 'scac_auto_detect_failed', scac: null, request_type: 'bill_of_lading', request_number: 'XQZT241600016', expected_outcome: 'failed:scac_auto_detect_failed', description: "No SCAC given and the prefix matches no carrier's bill of lading prefix." },
  { scenario: 'date_only', scac: 'ZIMU', request_type: 'bill_of_lading', request_number: 'ZIMU241700017', expected_outcome: 'created', description: 'A carrier that gives dates without times (stored as local midnight).' },
  { scenario: 'no_seal_no_weight', scac: 'GOSU', request_type: 'bill_of_lading', request_number: 'GOSU241800018', expected_outcome: 'created', description: 'A carrier that gives neither seal numbers nor weights.' },
  { scenario: 'container', scac: 'MAEU', request_type: 'container', request_number: makeContainerNumber('MAEU', 241900), expected_outcome: 'created', description: 'Tracking by container number: the story is built around that container.' },
  { scenario: 'test_succeeded', scac: 'TEST', request_type: 'bill_of_lading', request_number: 'TEST-TR-SUCCEEDED', expected_outcome: 'created', description: 'The TEST carrier: a successful story.' },
  { scenario: 'test_failed', scac: 'TEST', request_type: 'bill_of_lading', request_number: 'TEST-TR-FAILED', expected_outcome: 'failed:not_found', description: 'The TEST carrier: not found.' },
  { scenario: 'booked_ahead', scac: 'HLCU', request_type: 'booking_number', request_number: 'HLCU242000020', expected_outcome: 'created', description: 'A booking tracked about 18 days before the vessel sails: empty out, full in, the estimated then actual departure and the loading all happen after tracking starts, then the whole voyage to the empty return.' },
  { scenario: 'feeder', scac: 'CMDU', request_type: 'bill_of_lading', request_number: 'CMDU242100021', expected_outcome: 'created', description: 'Tracked before sailing: a feeder brings the box from its place of receipt to the bill of lading\'s POL at a hub (feeder loaded, departed, arrived, discharged), a vessel takes it to a second hub, and it is transshipped there to the mother vessel for the POD — all after tracking starts.' },
  { scenario: 'off_dock', scac: 'YMLU', request_type: 'bill_of_lading', request_number: 'YMLU242200022', expected_outcome: 'created', description: 'Discharged at a San Pedro Bay terminal, then moved to an off-dock yard, which offers it for pickup; the terminal\'s last free day still binds.' },
  { scenario: 'pickup_appointment', scac: 'ANNU', request_type: 'bill_of_lading', request_number: 'ANLC242300023', expected_outcome: 'created', description: 'A trucker books a pickup appointment at the terminal, reschedules it once, and picks the box up in that slot.' },
  { scenario: 'exam_long_stay', scac: 'OOLU', request_type: 'bill_of_lading', request_number: 'OOLU242400024', expected_outcome: 'created', description: 'Customs orders an exam (a customs hold and an `exam` fee); the box stays so long that demurrage and `extended_dwell_time` accrue before it is picked up.' },
  { scenario: 'hold_other', scac: 'ONEY', request_type: 'bill_of_lading', request_number: 'ONEY242500025', expected_outcome: 'created', description: 'The box is offered for pickup, then a terminal hold of a kind outside the named ones (`other`: a documentation hold) takes it off (`not_available`) for about a day, then it is offered again.' },
  { scenario: 'line_silent', scac: 'HDMU', request_type: 'bill_of_lading', request_number: 'HDMU242600026', expected_outcome: 'created', description: 'The line stops updating once the vessel has sailed; the terminal tells the rest, the empty return goes unreported, and tracking stops with `no_updates_at_line`.' },
  { scenario: 'never_returned', scac: 'MSCU', request_type: 'bill_of_lading', request_number: 'MEDU242700027', expected_outcome: 'created', description: 'Picked up, but the empty return is never reported: tracking stops 56 days after arrival with `past_arrival_window`.' },
] satisfies SandboxExample[]);

const BY_NUMBER = new Map(SANDBOX_EXAMPLES.map((e) => [e.request_number.toUpperCase(), e.scenario]));

/** The scenario of a documented number, whatever SCAC it is asked with; undefined for every other number. */
export function documentedScenario(number: string): ScenarioName | undefined {
  return BY_NUMBER.get(number.trim().toUpperCase());
}

export function sandboxExamples(): readonly SandboxExample[] {
  return SANDBOX_EXAMPLES;
}

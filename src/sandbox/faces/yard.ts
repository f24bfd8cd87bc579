// The event, place and yard blocks the terminal and rail faces share (the wire shapes are the adapters' raw.ts).
import type { z } from 'zod';
import type { MilestoneFact, Place, YardFact } from '../../sources/contract.js';
import {
  portByLocode,
  railHubByLocode,
  railHubByRampLocode,
  terminalByFirmsCode,
  terminalBySmdgCode,
} from '../../sources/reference/index.js';
import { EVENT_TYPE, holdType } from '../../sources/terminals/sandbox/codes.js';
import type { WireEvent, WirePlace, WireYard } from '../../sources/terminals/sandbox/raw.js';
import { whenText } from './types.js';

export function wirePlace(place: Place): z.input<typeof WirePlace> {
  return {
    locode: place.locode,
    name: place.name,
    code: place.facilityCode,
    code_list: place.facilityCode ? place.facilityCodeList : null,
  };
}

/** The facility's IANA zone from the reference tables: the terminal, else the rail hub, else the port. */
export function timeZoneOf(place: Place): string | null {
  const code = place.facilityCode;
  const terminal =
    code && place.facilityCodeList === 'firms'
      ? terminalByFirmsCode(code)
      : code && place.facilityCodeList === 'smdg' && place.locode
        ? terminalBySmdgCode(code, place.locode)
        : undefined;
  if (terminal) return terminal.timezone;
  if (!place.locode) return null;
  return (railHubByLocode(place.locode) ?? railHubByRampLocode(place.locode))?.timeZone ?? portByLocode(place.locode)?.timeZone ?? null;
}

export function wireEvent(m: MilestoneFact): z.input<typeof WireEvent> {
  return {
    id: m.sourceEventId,
    type: EVENT_TYPE[m.milestone],
    description: m.sourceCode,
    classifier: m.classifier,
    time: whenText(m.when),
    reported_at: m.reportedAt,
    location: m.place ? wirePlace(m.place) : null,
    vessel: m.vessel ? { name: m.vessel.name, imo: m.vessel.imo, mmsi: m.vessel.mmsi } : null,
    voyage: m.voyage,
    mode: m.mode,
    container_number: m.containerNumber,
    rail_carrier_scac: m.railCarrierScac,
  };
}

export function wireYard(y: YardFact): z.input<typeof WireYard> {
  return {
    facility: wirePlace(y.facility),
    time_zone: timeZoneOf(y.facility),
    available: y.available,
    holds: y.holds === null ? null : y.holds.map((h) => ({ type: holdType(h.name), status: h.status, description: h.description })),
    fees: y.fees === null ? null : y.fees.map((f) => ({ type: f.type, amount: f.amount, currency: f.currencyCode })),
    last_free_day: y.lastFreeDay === null ? null : whenText(y.lastFreeDay),
    line_last_free_day: y.lineLastFreeDay === null ? null : whenText(y.lineLastFreeDay),
    appointment: y.appointmentAt === null ? null : { scheduled_at: y.appointmentAt },
    yard_location: y.yardLocation,
    chassis_number: y.chassisNumber,
    ...(y.offDock ? { off_dock: true } : {}),
  };
}

export function notFound(message: string) {
  return { error: { code: 'not_found', message } };
}

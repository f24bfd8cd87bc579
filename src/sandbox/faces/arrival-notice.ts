// A simulated carrier's DCSA Arrival Notice 1.0.1 endpoint (GET {base}/arrival-notices), rendered from the world's
// answer: what Track & Trace cannot carry (weights, seals, every container of the bill of lading, the line's
// last free day), as real carriers publish it. `dcsaCarriableFacts(…, { arrivalNotices: true })` says what comes back.
import type { Place } from '../../sources/contract.js';
import type { CarrierAnswer } from '../answers.js';
import { dcsaCarriableFacts } from './dcsa.js';
import { type FaceResponse, json } from './types.js';

export interface ArrivalNoticesQuery {
  scac: string;
  /** `transportDocumentReferences` (comma-separated on the wire): the bills of lading asked for. */
  transportDocumentReferences: readonly string[];
  /** `equipmentReferences`: containers asked for (an alternative filter the standard allows; both are ANDed). */
  equipmentReferences: readonly string[];
}

export const ARRIVAL_NOTICE_API_VERSION = '1.0.1';

/**
 * `200 { arrivalNotices: [...] }`: one notice per `ok` answer whose bill of lading (and, when asked, a container)
 * matches; every other answer (awaiting manifest, cancelled, not found, …) has no notice, which DCSA answers with
 * an empty list, never a 404. `limit` and `cursor` are ignored (the standard allows a publisher without paging:
 * one bill of lading has one notice here). Without any filter: `400` with DCSA `feedbackElements`.
 */
export function renderArrivalNotices(answers: readonly CarrierAnswer[], query: ArrivalNoticesQuery): FaceResponse {
  const headers = { 'api-version': ARRIVAL_NOTICE_API_VERSION };
  const documents = new Set(query.transportDocumentReferences.map((r) => r.trim().toUpperCase()).filter(Boolean));
  const equipment = new Set(query.equipmentReferences.map((r) => r.replace(/\s+/g, '').toUpperCase()).filter(Boolean));
  if (documents.size === 0 && equipment.size === 0) {
    const message = 'Give transportDocumentReferences or equipmentReferences';
    return json(400, { feedbackElements: [{ severity: 'ERROR', message }] }, headers);
  }
  const notices = new Map<string, Record<string, unknown>>();
  for (const answer of answers) {
    const notice = arrivalNoticeOf(answer, query.scac);
    if (!notice) continue;
    const bl = notice.transportDocumentReference.toUpperCase();
    if (documents.size > 0 && !documents.has(bl)) continue;
    if (equipment.size > 0 && !notice.containers.some((c) => equipment.has(c))) continue;
    notices.set(bl, notice.body);
  }
  const arrivalNotices = [...notices.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, body]) => body);
  return json(200, { arrivalNotices }, headers);
}

interface RenderedNotice {
  transportDocumentReference: string;
  containers: string[];
  body: Record<string, unknown>;
}

function arrivalNoticeOf(answer: CarrierAnswer, scac: string): RenderedNotice | null {
  if (answer.status !== 'ok') return null;
  const facts = dcsaCarriableFacts(answer.facts, scac, { arrivalNotices: true }).facts;
  const s = facts.shipment;
  const bl = s?.billOfLadingNumber;
  if (!s || !bl) return null;
  // A notice version is identified by its issue time: the carrier's latest record, so a changed notice is newer.
  let issueDateTime: string | null = null;
  for (const m of facts.milestones) {
    if (m.reportedAt && (issueDateTime === null || Date.parse(m.reportedAt) > Date.parse(issueDateTime))) issueDateTime = m.reportedAt;
  }
  if (!issueDateTime) return null;

  const weighed = facts.containers.filter((c) => c.weightLbs !== null);
  const byDate = new Map<string, { when: { lastFreeDate: { value: string } } | { lastFreeDateTime: { value: string } }; refs: string[] }>();
  for (const y of facts.yard) {
    const lfd = y.lineLastFreeDay!;
    const when = lfd.localDate ? { lastFreeDate: { value: lfd.localDate } } : { lastFreeDateTime: { value: lfd.at! } };
    const key = JSON.stringify(when);
    const entry = byDate.get(key) ?? { when, refs: [] };
    entry.refs.push(y.containerNumber);
    byDate.set(key, entry);
  }
  const transport = {
    ...(s.portOfLading ? { portOfLoading: location(s.portOfLading) } : {}),
    ...(s.portOfDischarge ? { portOfDischarge: location(s.portOfDischarge) } : {}),
    ...(s.destination ? { placeOfDelivery: location(s.destination) } : {}),
  };
  const body: Record<string, unknown> = {
    issueDateTime,
    typeLabel: 'English, consignee',
    carrierCode: scac,
    carrierCodeListProvider: 'NMFTA',
    transportDocumentReference: bl,
    ...(Object.keys(transport).length ? { transport } : {}),
    // Demurrage free time: "the final date when the container(s) can be collected without incurring charges".
    ...(byDate.size
      ? { freeTimes: [...byDate.values()].map((f) => ({ typeCodes: ['DEM'], equipmentReferences: f.refs, ...f.when })) }
      : {}),
    utilizedTransportEquipments: facts.containers.map((c) => ({
      equipment: { equipmentReference: c.number, ...(c.isoSizeType ? { ISOEquipmentCode: c.isoSizeType } : {}) },
      ...(c.sealNumber ? { seals: [{ number: c.sealNumber, type: 'BLT' }] } : {}),
    })),
    // Weights as the carrier holds them (pounds), so nothing is lost to a unit conversion on the way.
    ...(weighed.length
      ? {
          consignmentItems: [
            {
              ...(s.bookingNumber ? { carrierBookingReference: s.bookingNumber } : {}),
              cargoItems: weighed.map((c) => ({ equipmentReference: c.number, cargoGrossWeight: { value: c.weightLbs, unit: 'LBR' } })),
            },
          ],
        }
      : {}),
  };
  return { transportDocumentReference: bl, containers: facts.containers.map((c) => c.number), body };
}

function location(place: Place): Record<string, unknown> {
  return {
    ...(place.name ? { locationName: place.name } : {}),
    ...(place.locode ? { UNLocationCode: place.locode } : {}),
    ...(place.facilityCode && place.facilityCodeList
      ? { facility: { facilityCode: place.facilityCode, facilityCodeListProvider: place.facilityCodeList.toUpperCase() } }
      : {}),
  };
}

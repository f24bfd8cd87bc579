// The shipment normalize makes from the carrier's word: its places, vessel and voyage, departure, arrival and
// inland-arrival times (actual, best estimate, first estimate), and the POD arrival's estimated event.
import type { Milestone } from '../domain/milestones.js';
import { carrierByScac } from '../sources/reference/index.js';
import { byTime, type Candidate, preference } from './occurrences.js';
import { atDestination, type SourceReading } from './source-reading.js';
import { deriveShipment, type EstimatedEventRecord, emptyShipment, type ShipmentSnapshot } from './snapshot.js';

/** Actual (earliest), best estimate and first-reported estimate of a milestone among the carrier's facts. */
function timesOf(reading: SourceReading, milestones: Milestone[], where: string | null | ((c: Candidate) => boolean)) {
  const here = typeof where === 'function' ? where : (c: Candidate) => where === null || c.place?.locode === where;
  const at = reading.carrierFacts.filter((c) => milestones.includes(c.milestone) && here(c) && c.time);
  const byMilestone = (a: Candidate, b: Candidate) => milestones.indexOf(a.milestone) - milestones.indexOf(b.milestone);
  const actual = at.filter((c) => c.classifier === 'actual').sort((a, b) => byMilestone(a, b) || byTime(a, b))[0];
  const estimates = at.filter((c) => c.classifier !== 'actual');
  const estimate = [...estimates].sort((a, b) => byMilestone(a, b) || preference(a, b))[0];
  const original = [...estimates].sort((a, b) => byMilestone(a, b) || a.reportedMs - b.reportedMs || a.order - b.order)[0];
  return { actual, estimate, original };
}

function podArrival(reading: SourceReading) {
  return timesOf(reading, ['vessel_arrived'], reading.podLocode);
}

/** The shipment as the carrier reports it (call only with a carrier observation). */
export function buildShipment(reading: SourceReading): ShipmentSnapshot {
  const { shipmentFact, pol, pod, podLocode, destination, destinationLocode } = reading;
  const scac = shipmentFact?.carrierScac ?? reading.input.carrier?.target.scac ?? null;
  const line = scac ? carrierByScac(scac) : undefined;
  const departure = timesOf(reading, ['vessel_departed'], pol?.locode ?? null);
  const arrival = podArrival(reading);
  const discharge = timesOf(reading, ['vessel_discharged'], podLocode);
  const vesselFrom = arrival.actual ?? arrival.estimate ?? discharge.actual ?? discharge.estimate;
  const inland = timesOf(
    reading,
    ['arrived_at_destination', 'rail_arrived'],
    destinationLocode ? (c: Candidate) => atDestination(reading, c) : (destination?.locode ?? null),
  );
  const s: ShipmentSnapshot = {
    ...emptyShipment(),
    bill_of_lading_number: shipmentFact?.billOfLadingNumber ?? null,
    booking_number: shipmentFact?.bookingNumber ?? null,
    shipping_line_scac: line?.scac ?? scac,
    shipping_line_name: line?.name ?? null,
    shipping_line_short_name: line?.shortName ?? null,
    port_of_lading_locode: pol?.locode ?? null,
    port_of_lading_name: pol?.name ?? null,
    pol_terminal: pol?.facility ?? null,
    pol_atd_at: departure.actual?.time?.at ?? null,
    pol_etd_at: departure.estimate?.time?.at ?? null,
    pol_original_etd_at: departure.original?.time?.at ?? null,
    pol_timezone: pol?.timezone ?? null,
    port_of_discharge_locode: podLocode,
    port_of_discharge_name: pod?.name ?? null,
    pod_terminal: pod?.facility ?? null,
    pod_vessel_name: vesselFrom?.vesselName ?? null,
    pod_vessel_imo: vesselFrom?.vesselImo ?? null,
    pod_voyage_number: vesselFrom?.voyage ?? null,
    pod_ata_at: arrival.actual?.time?.at ?? null,
    pod_eta_at: arrival.estimate?.time?.at ?? null,
    pod_original_eta_at: arrival.original?.time?.at ?? null,
    pod_timezone: pod?.timezone ?? null,
    destination_locode: destination?.locode ?? null,
    destination_name: destination?.name ?? null,
    destination_location_type: destination?.locationType ?? null,
    destination_terminal: destination?.facility ?? null,
    destination_ata_at: destination ? (inland.actual?.time?.at ?? null) : null,
    destination_eta_at: destination ? (inland.estimate?.time?.at ?? null) : null,
    destination_original_eta_at: destination ? (inland.original?.time?.at ?? null) : null,
    destination_timezone: destination?.timezone ?? null,
  };
  return deriveShipment(s);
}

/** The POD arrival's estimated event, when the shipment has an ETA. */
export function podEstimatedEvents(reading: SourceReading, shipment: ShipmentSnapshot | null): EstimatedEventRecord[] {
  const estimatedEvents: EstimatedEventRecord[] = [];
  if (shipment?.pod_eta_at) {
    const est = podArrival(reading).estimate;
    estimatedEvents.push({
      key: `shipment.estimated.arrival|${shipment.port_of_discharge_locode ?? '-'}|${shipment.pod_eta_at}`,
      event: 'shipment.estimated.arrival',
      estimated_timestamp: shipment.pod_eta_at,
      location_locode: shipment.port_of_discharge_locode,
      timezone: shipment.pod_timezone,
      voyage_number: est?.voyage ?? shipment.pod_voyage_number,
      vessel_name: est?.vesselName ?? shipment.pod_vessel_name,
      vessel_imo: est?.vesselImo ?? shipment.pod_vessel_imo,
      data_source: 'shipping_line',
      reported_at: est?.reportedAt ?? null,
    });
  }
  return estimatedEvents;
}

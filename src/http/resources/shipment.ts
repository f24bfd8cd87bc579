import { referenceId } from '../../lib/ids.js';
import type { ShipmentRecord } from '../../services/shipments.js';
import type { PartyService } from '../../services/parties.js';
import { isoSeconds, type ResourceKind } from '../jsonapi.js';
import type { ContainerService } from '../../services/containers.js';
import { containerKind } from './container.js';
import { customerInclude } from './party.js';

const TIMES = [
  'pol_etd_at',
  'pol_atd_at',
  'pol_original_etd_at',
  'pod_eta_at',
  'pod_original_eta_at',
  'pod_ata_at',
  'destination_eta_at',
  'destination_ata_at',
  'destination_original_eta_at',
  'line_tracking_last_attempted_at',
  'line_tracking_last_succeeded_at',
  'line_tracking_stopped_at',
  // Extra: when the line is next asked (domain time).
  'line_tracking_next_attempt_at',
] as const;

const TEXTS = [
  'bill_of_lading_number',
  'normalized_number',
  'customer_name',
  'shipping_line_scac',
  'shipping_line_name',
  'shipping_line_short_name',
  'port_of_lading_locode',
  'port_of_lading_name',
  'pol_timezone',
  'port_of_discharge_locode',
  'port_of_discharge_name',
  'pod_vessel_name',
  'pod_vessel_imo',
  'pod_voyage_number',
  'pod_timezone',
  'destination_locode',
  'destination_name',
  'destination_timezone',
  'line_tracking_stopped_reason',
] as const;

const portRef = (locode: string | null) => (locode ? { id: referenceId('port', locode), type: 'port' } : null);

/**
 * The shipment resource with the reference API's full attribute set. Relationships to ports point at
 * the stable reference ids (UUIDv5 of the UN/LOCODE); containers, terminals and their includes are
 * filled by the tracking engine and API issues as those tables arrive.
 */
export const shipmentKind = (parties: PartyService, containers?: ContainerService): ResourceKind<ShipmentRecord> => ({
  type: 'shipment',
  render: (s) => {
    const attributes: Record<string, unknown> = {};
    for (const k of TEXTS) attributes[k] = s[k] ?? null;
    for (const k of TIMES) attributes[k] = isoSeconds(s[k]);
    attributes.ref_numbers = s.ref_numbers ?? [];
    attributes.tags = s.tags ?? [];
    attributes.created_at = isoSeconds(s.created_at);
    attributes.updated_at = isoSeconds(s.updated_at);
    return {
      id: s.id,
      type: 'shipment',
      attributes,
      relationships: {
        port_of_lading: { data: portRef(s.port_of_lading_locode) },
        port_of_discharge: { data: portRef(s.port_of_discharge_locode) },
        pod_terminal: { data: null },
        destination: { data: portRef(s.destination_locode) },
        destination_terminal: { data: null },
        line_tracking_stopped_by_user: { data: null },
        containers: { data: (s.container_ids ?? []).map((id) => ({ id, type: 'container' })) },
        customer: { data: s.customer_id ? { id: s.customer_id, type: 'party' } : null },
      },
      links: { self: `/v2/shipments/${s.id}` },
    };
  },
  includable: {
    customer: customerInclude(parties),
    // Without the container service (kinds nested under a container) the relationship includes nothing.
    containers: containers
      ? {
          targets: () => [containerKind(containers, parties)],
          async load(records) {
            const accountId = records[0]?.account_id;
            if (!accountId) return [];
            const kind = containerKind(containers, parties);
            return (
              await containers.ofShipments(
                accountId,
                records.map((r) => r.id),
              )
            ).map((record) => ({ kind, record }));
          },
        }
      : null,
    pod_terminal: null,
    port_of_lading: null,
    port_of_discharge: null,
    destination: null,
    destination_terminal: null,
    line_tracking_stopped_by_user: null,
  },
});

import { readShipmentSnapshot } from '../tracking/stored.js';
import type { ShipmentSnapshot } from '../tracking/snapshot.js';
import type { ShipmentRecord } from '../storage/repositories/shipments.js';
import { predictionReason } from '../tracking/predicted-eta.js';
import type { ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import type { RelatedKinds } from './kinds.js';
import type { ResourceLoaders } from './loaders.js';
import { customFieldsInclude, customFieldsRelationship } from './custom-field-include.js';
import { customerInclude } from './party.js';
import { partyRoleKind } from './party-role.js';
import { facilityRef, locationInclude, locationRef, portInclude, portRef, terminalInclude } from './places.js';

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

/**
 * Extra (Tidemark's own estimate, beyond the reference): the POD vessel's predicted arrival from its AIS position,
 * the remaining sea route and its recent speed, until it has arrived; the reason follows the carrier's current ETA.
 */
function predictedEta(s: ShipmentRecord): { predicted_pod_eta_at: string | null; predicted_pod_eta_reason: string | null } {
  const at = s.pod_ata_at ? null : ((s.predicted_pod_eta_at as Date | null | undefined) ?? null);
  const distanceNm = s.predicted_distance_nm as number | null | undefined;
  const speedKnots = s.predicted_speed_knots as number | null | undefined;
  const reason =
    at && distanceNm != null && speedKnots != null
      ? predictionReason(
          { at, distanceNm, speedKnots },
          s.pod_eta_at,
          s.port_of_discharge_name ?? s.port_of_discharge_locode ?? 'the port of discharge',
        )
      : null;
  return { predicted_pod_eta_at: isoSeconds(at), predicted_pod_eta_reason: reason };
}

/** The engine's snapshot fields the place relationships come from (none before the first refresh). */
type PlaceFields = Partial<Pick<ShipmentSnapshot, 'pod_terminal' | 'destination_terminal' | 'destination_location_type'>>;
const placesOf = (s: ShipmentRecord): PlaceFields => readShipmentSnapshot(s.snapshot) ?? {};

/**
 * The shipment resource with the reference API's full attribute set. Relationships to places point at the
 * stable reference ids (UUIDv5 of the UN/LOCODE, of the terminal's code) of places the API can render.
 * `party_roles` is on the wire only when the list asked for it (`with_party_roles=true`) or includes it:
 * then the record carries `party_role_ids`; `custom_fields` only when the request includes it (`custom_field_ids`).
 */
export const shipmentKindOf = (deps: ResourceLoaders, kinds: RelatedKinds): ResourceKind<ShipmentRecord> => ({
  type: 'shipment',
  render: (s) => {
    const attributes: Record<string, unknown> = {};
    for (const k of TEXTS) attributes[k] = s[k] ?? null;
    for (const k of TIMES) attributes[k] = isoSeconds(s[k]);
    attributes.ref_numbers = s.ref_numbers ?? [];
    attributes.tags = s.tags ?? [];
    Object.assign(attributes, predictedEta(s));
    attributes.created_at = isoSeconds(s.created_at);
    attributes.updated_at = isoSeconds(s.updated_at);
    const roles = s.party_role_ids as string[] | undefined;
    return {
      id: s.id,
      type: 'shipment',
      attributes,
      relationships: {
        port_of_lading: { data: portRef(s.port_of_lading_locode) },
        port_of_discharge: { data: portRef(s.port_of_discharge_locode) },
        pod_terminal: { data: facilityRef(placesOf(s).pod_terminal) },
        destination: { data: locationRef(s.destination_locode, placesOf(s).destination_location_type) },
        destination_terminal: { data: facilityRef(placesOf(s).destination_terminal) },
        line_tracking_stopped_by_user: { data: null },
        containers: { data: (s.container_ids ?? []).map((id) => ({ id, type: 'container' })) },
        customer: { data: s.customer_id ? { id: s.customer_id, type: 'party' } : null },
        ...(roles ? { party_roles: { data: roles.map((id) => ({ id, type: 'party_role' })) } } : {}),
        ...customFieldsRelationship(s),
      },
      links: { self: `/v2/shipments/${s.id}` },
    };
  },
  includable: {
    customer: customerInclude(deps.parties),
    containers: {
      targets: () => [kinds.container],
      async load(records) {
        const accountId = records[0]?.account_id;
        if (!accountId) return [];
        const kind = kinds.container;
        return (
          await deps.containers.ofShipments(
            accountId,
            records.map((r) => r.id),
          )
        ).map((record) => ({ kind, record }));
      },
    },
    party_roles: {
      targets: () => [partyRoleKind(deps.parties)],
      async load(records) {
        const accountId = records[0]?.account_id;
        if (!accountId) return [];
        const kind = partyRoleKind(deps.parties);
        return (
          await deps.partyRoles.ofShipments(
            accountId,
            records.map((r) => r.id),
          )
        ).map((record) => ({ kind, record }));
      },
    },
    pod_terminal: terminalInclude(deps.places, (s) => [placesOf(s).pod_terminal]),
    port_of_lading: portInclude(deps.places, (s) => [s.port_of_lading_locode]),
    port_of_discharge: portInclude(deps.places, (s) => [s.port_of_discharge_locode]),
    destination: locationInclude(deps.places, (s) => [{ locode: s.destination_locode, type: placesOf(s).destination_location_type }]),
    destination_terminal: terminalInclude(deps.places, (s) => [placesOf(s).destination_terminal]),
    line_tracking_stopped_by_user: null,
    // Extension (docs/extensions.md): the shipment's custom-field values.
    custom_fields: customFieldsInclude(deps.customFields, 'shipment'),
  },
});

/** Puts the ids of each shipment's party roles on it, so that it renders the `party_roles` relationship. */
export async function attachPartyRoles(
  deps: Pick<ResourceLoaders, 'partyRoles'>,
  accountId: string,
  shipments: ShipmentRecord[],
): Promise<void> {
  const roles = await deps.partyRoles.ofShipments(
    accountId,
    shipments.map((s) => s.id),
  );
  for (const s of shipments) s.party_role_ids = roles.filter((r) => r.shipment_id === s.id).map((r) => r.id);
}

import { referenceId } from '../../lib/ids.js';
import type { ContainerService, TransportEventRow } from '../../services/containers.js';
import type { PartyService } from '../../services/parties.js';
import type { ResourceKind } from '../jsonapi.js';
import { isoSeconds } from '../jsonapi.js';
import { containerKind } from './container.js';
import { shipmentKind } from './shipment.js';

/** The transport_event resource (api-wire-notes §4.4), rendered from the engine's stored record. */
export const transportEventKind = (containers: ContainerService, parties: PartyService): ResourceKind<TransportEventRow> => ({
  type: 'transport_event',
  render: (e) => {
    const r = e.record as {
      event: string;
      voyage_number: string | null;
      timestamp: string | null;
      timezone: string | null;
      location_locode: string | null;
      location_type: 'port' | 'metro_area' | null;
      terminal: { id: string | null; kind?: string } | null;
      data_source: string;
      value: string | null;
    };
    const locationType = r.location_type ?? 'port';
    return {
      id: e.id,
      type: 'transport_event',
      attributes: {
        event: e.event,
        voyage_number: r.voyage_number,
        timestamp: r.timestamp,
        timezone: r.timezone,
        location_locode: r.location_locode,
        data_source: r.data_source,
        value: r.value,
        invalidated_at: null,
        created_at: isoSeconds(e.created_at),
      },
      relationships: {
        shipment: { data: { id: e.shipment_id, type: 'shipment' } },
        container: { data: { id: e.container_id, type: 'container' } },
        vessel: { data: null },
        location: { data: r.location_locode ? { id: referenceId(locationType, r.location_locode), type: locationType } : null },
        terminal: {
          data: r.terminal?.id ? { id: r.terminal.id, type: r.terminal.kind === 'rail_terminal' ? 'rail_terminal' : 'terminal' } : null,
        },
        source_event: { data: null },
        previous_version: { data: null },
      },
    };
  },
  includable: {
    shipment: {
      targets: () => [shipmentKind(parties, containers)],
      async load(records) {
        const accountId = records[0]?.account_id;
        if (!accountId) return [];
        const kind = shipmentKind(parties, containers);
        return (await containers.shipments(accountId, [...new Set(records.map((r) => r.shipment_id))])).map((record) => ({ kind, record }));
      },
    },
    container: {
      targets: () => [containerKind(containers, parties)],
      async load(records) {
        const accountId = records[0]?.account_id;
        if (!accountId) return [];
        const kind = containerKind(containers, parties);
        return (await containers.byIds(accountId, [...new Set(records.map((r) => r.container_id))])).map((record) => ({ kind, record }));
      },
    },
    location: null,
    terminal: null,
    vessel: null,
  },
});

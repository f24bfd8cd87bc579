import { describe, expect, it } from 'vitest';
import {
  readContainerSnapshot,
  readContainerSnapshots,
  readDomainEvent,
  readShipmentSnapshot,
  readStoredState,
  readTransportEventRecord,
  StoredDocumentError,
} from './stored.js';

describe('stored document readers', () => {
  it('hand back the stored object itself, without copying it', () => {
    const snapshot = { number: 'MSCU1234565', status: 'on_ship' };
    expect(readContainerSnapshot(snapshot)).toBe(snapshot);
    expect(readTransportEventRecord(snapshot)).toBe(snapshot);
    expect(readContainerSnapshots([snapshot])[0]).toBe(snapshot);
  });

  it('read a missing shipment snapshot or state as null', () => {
    expect(readShipmentSnapshot(null)).toBeNull();
    expect(readStoredState(null)).toBeNull();
    expect(readStoredState({ shipment: null, containers: [] })).toEqual({ shipment: null, containers: [] });
  });

  it('refuse what is not the column’s document, naming the column', () => {
    expect(() => readContainerSnapshot(null)).toThrow(new StoredDocumentError('containers.snapshot', null));
    expect(() => readContainerSnapshot('{"number":"X"}')).toThrow(/containers\.snapshot does not hold a stored document: found a string/);
    expect(() => readContainerSnapshot([])).toThrow(/found an array/);
    expect(() => readContainerSnapshots([{}, 3])).toThrow(/tracked_shipments\.state->'containers'/);
    expect(() => readShipmentSnapshot(7)).toThrow(/shipments\.snapshot .* found a number/);
    expect(() => readStoredState({ shipment: null })).toThrow(/tracked_shipments\.state->'containers'/);
  });

  it('read an account event payload only as the event its row names', () => {
    const updated = { type: 'container.updated', container_number: 'MSCU1234565', changeset: {} };
    expect(readDomainEvent(updated, 'container.updated')).toBe(updated);
    expect(() => readDomainEvent(updated, 'container.pod_terminal_changed')).toThrow(
      /account_events\.payload does not hold a stored document: found a container\.updated event where container\.pod_terminal_changed belongs/,
    );
    expect(() => readDomainEvent(null, 'container.updated')).toThrow(/found null/);
  });
});

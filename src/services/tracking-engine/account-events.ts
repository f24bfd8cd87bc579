// The events an account may see, recorded in `account_events` in commit order: a row for one event, and which
// of a refresh's domain events an account sees, in the order things happened.
import { newId } from '../../lib/ids.js';
import type { Queryable } from '../../storage/db.js';
import * as repo from '../../storage/repositories/tracking.js';
import type { DomainEvent } from '../../tracking/changes.js';
import type { EngineContext } from './context.js';

/** What an account event points at, and its payload. */
export interface AccountEventRefs {
  tracking_request_id?: string | null;
  shipment_id?: string | null;
  container_id?: string | null;
  transport_event_id?: string | null;
  estimated_event_id?: string | null;
  payload: unknown;
}

/** Records one account event (wall time now for the row). */
export async function recordAccountEvent(
  ctx: EngineContext,
  tx: Queryable,
  accountId: string,
  event: string,
  worldNow: Date,
  refs: AccountEventRefs,
): Promise<void> {
  await repo.insertAccountEvents(tx, [accountEventRow(accountId, event, worldNow, refs)], ctx.clocks.wall.now());
}

export function accountEventRow(accountId: string, event: string, worldNow: Date, refs: AccountEventRefs): repo.NewAccountEvent {
  return {
    id: newId(),
    account_id: accountId,
    event,
    tracking_request_id: refs.tracking_request_id ?? null,
    shipment_id: refs.shipment_id ?? null,
    container_id: refs.container_id ?? null,
    transport_event_id: refs.transport_event_id ?? null,
    estimated_event_id: refs.estimated_event_id ?? null,
    payload: refs.payload,
    occurred_at: worldNow,
  };
}

/**
 * A refresh's events in the order things happened: a terminal's late word on a pickup and the line's
 * discharge learned in one refresh are announced discharge first. Stable for events at the same time.
 */
export function inOrder(events: readonly DomainEvent[]): DomainEvent[] {
  const at = (e: DomainEvent): number => {
    const t = 'transport_event' in e ? e.transport_event.timestamp : 'timestamp' in e ? e.timestamp : null;
    const ms = t ? Date.parse(t) : Number.NaN;
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  };
  return events
    .map((e, i) => ({ e, i, at: at(e) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((x) => x.e);
}

/** The events an account may see: the rail LFD ones only with `rail_lfd`. */
export function visibleTo(events: readonly DomainEvent[], features: readonly string[]): DomainEvent[] {
  if (features.includes('rail_lfd')) return [...events];
  const out: DomainEvent[] = [];
  for (const e of events) {
    if (e.type === 'container.pickup_lfd_rail.changed') continue;
    if (e.type === 'container.updated' && 'pickup_lfd_rail' in e.changeset) {
      const { pickup_lfd_rail: _hidden, ...changeset } = e.changeset;
      if (Object.keys(changeset).length > 0) out.push({ ...e, changeset });
      continue;
    }
    out.push(e);
  }
  return out;
}

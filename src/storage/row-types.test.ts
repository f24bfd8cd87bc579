// Type-level checks of the repositories' row types against the generated table types (schema.generated.ts), for
// what `interface Row extends Pick<Table, …>` lets through: an override may narrow a column's type (a status union
// for text), and TypeScript also accepts dropping `null` that way. A row read from a table must keep a nullable
// column nullable, unless the statement filters it (VesselVoyage, not listed). json/jsonb columns (`unknown`) are
// left out: their documents are read through src/tracking/stored.ts. `npm run typecheck` is the real check; the
// test is there to name it.
import { describe, expectTypeOf, it } from 'vitest';
import type { ContainerRecord, TransportEventRow } from './repositories/containers.js';
import type { DerivationRow } from './repositories/derivation.js';
import type { EstimatedEventRow } from './repositories/notification-reads.js';
import type { PartyRoleRecord } from './repositories/party-roles.js';
import type { ShipmentRecord } from './repositories/shipments.js';
import type { AccountEventRow, TrackedShipmentRow } from './repositories/tracking.js';
import type { TrackingRequestRecord } from './repositories/tracking-requests.js';
import type { OneTimeTokenRow, UserRow } from './repositories/users.js';
import type { VesselPositionRow, VesselRow } from './repositories/vessels.js';
import type { NotificationRow, WebhookRow } from './repositories/webhooks.js';
import type * as Tables from './schema.generated.js';

/** The columns of `R` that do not fit table `T`'s: nullability changed, or a type that is not the column's or narrower. */
type Misfits<R, T> = {
  [K in keyof R & keyof T]-?: unknown extends T[K]
    ? never
    : (null extends R[K] ? true : false) extends (null extends T[K] ? true : false)
      ? [Exclude<R[K], null | undefined>] extends [Exclude<T[K], null>]
        ? never
        : K
      : K;
}[keyof R & keyof T];

describe('row types', () => {
  it('keep every column they read at its table’s type and nullability', () => {
    expectTypeOf<Misfits<ContainerRecord, Tables.Containers>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<TransportEventRow, Tables.TransportEvents>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<ShipmentRecord, Tables.Shipments>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<TrackedShipmentRow, Tables.TrackedShipments>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<AccountEventRow, Tables.AccountEvents>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<NotificationRow, Tables.WebhookNotifications>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<Omit<NotificationRow, keyof Tables.WebhookNotifications>, Tables.AccountEvents>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<WebhookRow, Tables.Webhooks>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<UserRow, Tables.Users>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<OneTimeTokenRow, Tables.OneTimeTokens>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<VesselRow, Tables.Vessels>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<VesselPositionRow, Tables.VesselPositions>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<TrackingRequestRecord, Tables.TrackingRequests>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<DerivationRow, Tables.Derivation>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<EstimatedEventRow, Tables.EstimatedEvents>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<PartyRoleRecord, Tables.PartyRoles>>().toEqualTypeOf<never>();
  });
});

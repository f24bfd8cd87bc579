// Party roles on an account's shipments and containers. A shipment's `customer` role is mirrored in
// shipments.customer_id: the most recently given customer role wins, and removing it falls back to the one before.
import { one, type Queryable } from '../db.js';
import { changed, changeTag } from './changes.js';
import type { PartyRoles } from '../schema.generated.js';

export interface PartyRoleRecord extends PartyRoles {}

export const PARTY_ROLE_UNIQUE = ['party_roles_shipment_key', 'party_roles_container_key'];

export async function insertPartyRole(q: Queryable, r: PartyRoleRecord): Promise<PartyRoleRecord> {
  const row = await one<PartyRoleRecord>(
    q,
    `INSERT INTO party_roles (id, account_id, party_id, role, shipment_id, container_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [r.id, r.account_id, r.party_id, r.role, r.shipment_id, r.container_id, r.created_at, r.updated_at],
  );
  changed(q, [changeTag.account(r.account_id)]);
  return row!;
}

export async function findPartyRole(q: Queryable, accountId: string, id: string): Promise<PartyRoleRecord | undefined> {
  return one<PartyRoleRecord>(q, 'SELECT * FROM party_roles WHERE account_id = $1 AND id = $2', [accountId, id]);
}

export async function deletePartyRole(q: Queryable, accountId: string, id: string): Promise<PartyRoleRecord | undefined> {
  const row = await one<PartyRoleRecord>(q, 'DELETE FROM party_roles WHERE account_id = $1 AND id = $2 RETURNING *', [accountId, id]);
  changed(q, [changeTag.account(accountId)]);
  return row;
}

/** The roles on these shipments, oldest first. */
export async function partyRolesOfShipments(q: Queryable, accountId: string, shipmentIds: string[]): Promise<PartyRoleRecord[]> {
  if (shipmentIds.length === 0) return [];
  return q.query<PartyRoleRecord>(
    'SELECT * FROM party_roles WHERE account_id = $1 AND shipment_id = ANY($2::uuid[]) ORDER BY created_at, id',
    [accountId, shipmentIds],
  );
}

/** Points shipments.customer_id at the latest customer role of the shipment (null when it has none). */
export async function syncShipmentCustomer(q: Queryable, shipmentId: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE shipments s SET customer_id = r.party_id, updated_at = $2
     FROM (SELECT (SELECT party_id FROM party_roles WHERE shipment_id = $1 AND lower(role) = 'customer'
                   ORDER BY created_at DESC, id DESC LIMIT 1) AS party_id) r
     WHERE s.id = $1 AND s.customer_id IS DISTINCT FROM r.party_id`,
    [shipmentId, now],
  );
  changed(q, [changeTag.shipment(shipmentId)]);
}

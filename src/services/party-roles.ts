// Party roles: which of the account's parties is the shipper, consignee, customer, notify party (or any role
// the account names) of one of its shipments or containers. Everything named must be the caller's account's.
import type { Clock } from '../domain/clock.js';
import { type ErrorItem, notFound, validationFailed } from '../domain/errors.js';
import { isUuid, newId } from '../lib/ids.js';
import { type Db, isUniqueViolation } from '../storage/db.js';
import { findContainer } from '../storage/repositories/containers.js';
import { findParty } from '../storage/repositories/parties.js';
import { findShipment } from '../storage/repositories/shipments.js';
import * as repo from '../storage/repositories/party-roles.js';

export type { PartyRoleRecord } from '../storage/repositories/party-roles.js';

/** The roles the reference names; they are kept in lower case however they are typed. Others are kept as given. */
export const KNOWN_ROLES = ['shipper', 'consignee', 'customer', 'notify_party'] as const;

export interface NewPartyRole {
  role: string | null | undefined;
  partyId: string | null | undefined;
  shipmentId: string | null | undefined;
  containerId: string | null | undefined;
}

export class PartyRoleService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string, input: NewPartyRole): Promise<repo.PartyRoleRecord> {
    const problems: ErrorItem[] = [];
    const role = (input.role ?? '').trim();
    if (!role) problems.push({ pointer: '/data/attributes/role', detail: "Role can't be blank", code: 'blank' });
    else if (role.length > 100)
      problems.push({ pointer: '/data/attributes/role', detail: 'Role is too long (maximum is 100 characters)', code: 'too_long' });
    if (!input.partyId) problems.push({ pointer: '/data/relationships/party', detail: "Party can't be blank", code: 'blank' });
    if (!input.shipmentId === !input.containerId) {
      problems.push({
        pointer: '/data/relationships',
        detail: 'Give exactly one of the shipment and container relationships',
        code: 'invalid',
      });
    }
    if (problems.length) throw validationFailed(problems);

    const known = KNOWN_ROLES.find((r) => r === role.toLowerCase());
    const now = this.clock.now();
    try {
      return await this.db.transaction(async (tx) => {
        const missing: ErrorItem[] = [];
        const party = isUuid(input.partyId!) ? await findParty(tx, accountId, input.partyId!) : undefined;
        if (!party) missing.push({ pointer: '/data/relationships/party/data/id', detail: 'No such party in this account', code: 'not_found' });
        const [what, id, pointer, find] = input.shipmentId
          ? (['shipment', input.shipmentId, '/data/relationships/shipment/data/id', findShipment] as const)
          : (['container', input.containerId!, '/data/relationships/container/data/id', findContainer] as const);
        const target = isUuid(id) ? await find(tx, accountId, id) : undefined;
        if (!target) missing.push({ pointer, detail: `No such ${what} in this account`, code: 'not_found' });
        if (missing.length) throw validationFailed(missing);
        const created = await repo.insertPartyRole(tx, {
          id: newId(),
          account_id: accountId,
          party_id: party!.id,
          role: known ?? role,
          shipment_id: input.shipmentId ? id.toLowerCase() : null,
          container_id: input.containerId ? id.toLowerCase() : null,
          created_at: now,
          updated_at: now,
        });
        if (created.shipment_id && known === 'customer') await repo.syncShipmentCustomer(tx, created.shipment_id, now);
        return created;
      });
    } catch (err) {
      if (repo.PARTY_ROLE_UNIQUE.some((c) => isUniqueViolation(err, c))) {
        throw validationFailed([
          { pointer: '/data/attributes/role', detail: `The party already has the role '${known ?? role}' there`, code: 'taken' },
        ]);
      }
      throw err;
    }
  }

  async get(accountId: string, id: string): Promise<repo.PartyRoleRecord> {
    const found = isUuid(id) ? await repo.findPartyRole(this.db, accountId, id) : undefined;
    if (!found) throw notFound('party role');
    return found;
  }

  async delete(accountId: string, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound('party role');
    await this.db.transaction(async (tx) => {
      const gone = await repo.deletePartyRole(tx, accountId, id);
      if (!gone) throw notFound('party role');
      if (gone.shipment_id && gone.role === 'customer') await repo.syncShipmentCustomer(tx, gone.shipment_id, this.clock.now());
    });
  }

  /** The roles on these shipments of the account, oldest first (for `party_roles`). */
  ofShipments(accountId: string, shipmentIds: string[]): Promise<repo.PartyRoleRecord[]> {
    return repo.partyRolesOfShipments(this.db, accountId, shipmentIds);
  }
}

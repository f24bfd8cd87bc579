import type { PartyRoleRecord } from '../storage/repositories/party-roles.js';
import type { ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import type { PartyLoaders } from './loaders.js';
import { partyKind } from './party.js';
import type { Resource } from './schemas.js';

/** A party's role on a shipment or container (`party_role`); `include=party` sideloads the party. */
export const partyRoleKind = (parties: PartyLoaders): ResourceKind<PartyRoleRecord, Resource<'party_role'>> => ({
  type: 'party_role',
  render: (r): Resource<'party_role'> => ({
    id: r.id,
    type: 'party_role',
    attributes: { role: r.role, created_at: isoSeconds(r.created_at), updated_at: isoSeconds(r.updated_at) },
    relationships: {
      party: { data: { id: r.party_id, type: 'party' } },
      shipment: { data: r.shipment_id ? { id: r.shipment_id, type: 'shipment' } : null },
      container: { data: r.container_id ? { id: r.container_id, type: 'container' } : null },
    },
    links: { self: `/v2/party_roles/${r.id}` },
  }),
  includable: {
    party: {
      targets: () => [partyKind],
      async load(records) {
        const accountId = records[0]?.account_id;
        if (!accountId) return [];
        const ids = [...new Set(records.map((r) => r.party_id))];
        return (await parties.byIds(accountId, ids)).map((record) => ({ kind: partyKind, record }));
      },
    },
  },
});

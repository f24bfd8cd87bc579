import type { Party } from '../storage/repositories/parties.js';
import type { RelationshipDef, ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import type { PartyLoaders } from './loaders.js';
import type { Resource } from './schemas.js';

export const partyKind: ResourceKind<Party, Resource<'party'>> = {
  type: 'party',
  render: (p): Resource<'party'> => ({
    id: p.id,
    type: 'party',
    attributes: { company_name: p.companyName, created_at: isoSeconds(p.createdAt), updated_at: isoSeconds(p.updatedAt) },
    relationships: {},
    links: { self: `/v2/parties/${p.id}` },
  }),
  includable: {},
};

/** The `customer` relationship of a record that names a party of its account (shipments, tracking requests). */
export function customerInclude<T extends { account_id: string; customer_id: string | null }>(parties: PartyLoaders): RelationshipDef<T> {
  return {
    targets: () => [partyKind],
    async load(records) {
      const accountId = records[0]?.account_id;
      const ids = [...new Set(records.map((r) => r.customer_id).filter((id): id is string => !!id))];
      if (!accountId) return [];
      return (await parties.byIds(accountId, ids)).map((record) => ({ kind: partyKind, record }));
    },
  };
}

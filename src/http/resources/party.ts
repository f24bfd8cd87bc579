import type { Party } from '../../services/parties.js';
import { isoSeconds, type ResourceKind } from '../jsonapi.js';

export const partyKind: ResourceKind<Party> = {
  type: 'party',
  render: (p) => ({
    id: p.id,
    type: 'party',
    attributes: { company_name: p.companyName, created_at: isoSeconds(p.createdAt), updated_at: isoSeconds(p.updatedAt) },
    relationships: {},
    links: { self: `/v2/parties/${p.id}` },
  }),
  includable: {},
};

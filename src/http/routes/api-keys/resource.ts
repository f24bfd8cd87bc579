// An API key as the key routes render it (masked: the full key is in the create response only).
import type { MaskedKey } from '../../../services/accounts.js';
import type { ResourceObject } from '../../../render/jsonapi.js';
import { isoSeconds } from '../../../lib/dates.js';

export const renderApiKey = (k: MaskedKey): ResourceObject => ({
  id: k.id,
  type: 'api_key',
  attributes: {
    name: k.name,
    masked: k.masked,
    created_at: isoSeconds(k.createdAt),
    last_used_at: isoSeconds(k.lastUsedAt),
  },
  relationships: {},
  links: { self: `/v2/api_keys/${k.id}` },
});

// The webhook resource (api-wire-notes §4.13): the endpoint, its events, custom headers and signing secret;
// extras say when and why Tidemark turned it off after deliveries kept failing.
import type { WebhookView } from '../storage/repositories/webhooks.js';
import type { ResourceKind } from './jsonapi.js';
import { isoSeconds } from '../lib/dates.js';
import type { ResourceLoaders } from './loaders.js';
import type { Attributes, Resource } from './schemas.js';

export type WebhookRecord = WebhookView;

/** Takes the loaders every kind takes, though a webhook has no relationships to load. */
export const webhookKind = (_loaders: ResourceLoaders): ResourceKind<WebhookRecord, Resource<'webhook'>> => ({
  type: 'webhook',
  render: (w): Resource<'webhook'> => ({
    id: w.id,
    type: 'webhook',
    attributes: {
      url: w.url,
      active: w.active,
      events: w.events as Attributes<'webhook'>['events'],
      secret: w.secret,
      headers: w.headers ?? [],
      created_at: isoSeconds(w.created_at),
      updated_at: isoSeconds(w.updated_at),
      deactivated_at: isoSeconds(w.deactivated_at),
      deactivated_reason: w.deactivated_reason ?? null,
    },
    relationships: {},
  }),
  includable: {},
});

import type { WebhookService } from '../services/webhooks.js';
import type { HttpDeps } from '../http/context.js';

/** The services resource kinds load their includes from: every kind gets the same ones, so any path resolves. */
export type ResourceDeps = Pick<
  HttpDeps,
  'parties' | 'partyRoles' | 'containers' | 'places' | 'vessels' | 'trackingRequests' | 'notifications'
> & {
  /** A notification's `webhook` (a narrow view, so that the documents of examples can be made without a database). */
  webhooks: Pick<WebhookService, 'viewsByIds'>;
};

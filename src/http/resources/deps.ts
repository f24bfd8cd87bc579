import type { HttpDeps } from '../context.js';

/** The services resource kinds load their includes from: every kind gets the same ones, so any path resolves. */
export type ResourceDeps = Pick<HttpDeps, 'parties' | 'partyRoles' | 'containers' | 'places' | 'vessels' | 'trackingRequests'>;

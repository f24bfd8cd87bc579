// The REST API's JSON:API renderers, reused so that tools return the same attribute names as /v2.
import { parseInclude, type ResourceKind, type ResourceObject, resolveIncluded } from '../render/jsonapi.js';
import { containerKind, shipmentKind, transportEventKind } from '../render/kinds.js';

import { trackingRequestKind } from '../render/tracking-request.js';

import type { McpDeps } from './context.js';

export function kinds(deps: McpDeps) {
  return {
    container: containerKind(deps),
    shipment: shipmentKind(deps),
    trackingRequest: trackingRequestKind(deps),
    transportEvent: transportEventKind(deps),
  };
}

/** Renders records and what `include` names (relationship names of the kind; validated there). */
export async function renderWith<T>(
  kind: ResourceKind<T>,
  records: T[],
  include: readonly string[],
): Promise<{ data: ResourceObject[]; included: ResourceObject[] }> {
  const tree = parseInclude(include.length ? include.join(',') : undefined, kind);
  return { data: records.map((r) => kind.render(r)), included: await resolveIncluded(kind, records, tree) };
}

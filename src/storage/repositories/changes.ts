// Which stored records changed, told to every process once the writing transaction commits (NOTIFY on
// CHANGES_CHANNEL, and to the writing process itself at the commit). Processes that keep rendered documents
// (services/document-cache.ts) drop those built from what changed. Every function here that writes what a
// shipment or container document renders says so through `changed`; test/architecture.test.ts holds them to it.
import { normalizeImo } from '../../domain/imo.js';
import type { Queryable } from '../db.js';

export const CHANGES_CHANNEL = 'tidemark_changes';

/** The words of a change message: what a document was built from. */
export const changeTag = {
  /** A shipment, its containers or their transport events. */
  shipment: (id: string) => `s:${id}`,
  /** The source answers (raw observations) of a tracked shipment, which every follower's raw events come from. */
  tracked: (id: string) => `t:${id}`,
  /** The predicted arrival of a vessel (by its 7-digit IMO number, as vessel_pod_etas keys it). */
  vessel: (imo: string) => `v:${imo}`,
  /** Anything of an account that many of its documents show (a party's name, its roles). */
  account: (id: string) => `a:${id}`,
};

/**
 * What a shipment's or container's document is built from besides its account: the shipment (itself, its
 * containers and their transport events), the tracked shipment whose source answers give the raw events, and the
 * POD vessel whose predicted arrival the shipment shows.
 */
export function shipmentDocumentTags(
  shipmentId: string,
  trackedShipmentId: string | null | undefined,
  podVesselImo: string | null | undefined,
): string[] {
  const tags = [changeTag.shipment(shipmentId)];
  if (trackedShipmentId) tags.push(changeTag.tracked(trackedShipmentId));
  const imo = normalizeImo(podVesselImo);
  if (imo) tags.push(changeTag.vessel(imo));
  return tags;
}

/** Tells every process, once `q`'s writes commit, that the records behind these tags changed. */
export function changed(q: Queryable, tags: Iterable<string>): void {
  const words = [...new Set(tags)];
  if (words.length > 0) q.notifyAfterCommit?.(CHANGES_CHANNEL, words.join(','));
}

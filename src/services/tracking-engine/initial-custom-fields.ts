// The `initial_custom_fields` a tracking request was made with, applied to the account's new shipment and its
// containers in the transaction that makes them (docs/custom-fields.md "Values staged with a tracking request"):
// taken from the request and marked applied in that transaction, so a crash applies none and a retried or re-run
// attempt none twice. What cannot be applied any more (a container number the shipment does not have, a definition
// deleted or a value its definition no longer takes since the request was checked) is skipped and recorded.
import { readStaged, type Skipped, planContainerValues } from '../../domain/initial-custom-fields.js';
import type { Queryable } from '../../storage/db.js';
import { containerNumbersOf } from '../../storage/repositories/containers.js';
import * as requests from '../../storage/repositories/tracking-requests.js';
import { CustomFieldService } from '../custom-fields.js';
import type { EngineContext } from './context.js';

/** Applies the request's staged values, once, to its account's shipment `shipmentId` and that shipment's containers. */
export async function applyInitialCustomFields(
  ctx: EngineContext,
  tx: Queryable,
  req: Pick<requests.TrackingRequestRecord, 'id' | 'account_id'>,
  shipmentId: string,
): Promise<void> {
  const stored = await requests.takeInitialCustomFields(tx, req.id, ctx.clocks.wall.now());
  if (stored === undefined) return;
  const staged = readStaged(stored);
  const fields = new CustomFieldService(ctx.db, ctx.clocks.wall);
  const accountId = req.account_id;
  const skipped: Skipped[] = [];

  // Checked again in this transaction (the definitions may have changed since the request was made), each value once,
  // the definitions and options read once per list.
  const shipment = [{ type: 'shipment' as const, id: shipmentId }];
  for (const p of await fields.applyStaged(tx, accountId, 'Shipment', staged.shipment, () => shipment)) {
    skipped.push({ entity: 'shipment', index: p.index, api_slug: staged.shipment[p.index]!.api_slug, number: null, reason: p.detail });
  }

  const plan = planContainerValues(staged.containers, await containerNumbersOf(tx, accountId, shipmentId));
  skipped.push(...plan.skipped);
  const targets = new Map<number, { type: 'container'; id: string }[]>();
  for (const w of plan.writes) targets.set(w.index, [...(targets.get(w.index) ?? []), { type: 'container', id: w.containerId }]);
  for (const p of await fields.applyStaged(tx, accountId, 'Container', staged.containers, (i) => targets.get(i) ?? [])) {
    const item = staged.containers[p.index]!;
    skipped.push({ entity: 'container', index: p.index, api_slug: item.api_slug, number: item.number ?? null, reason: p.detail });
  }

  if (skipped.length) {
    await requests.recordSkippedInitialCustomFields(tx, req.id, skipped);
    ctx.log?.warn({ tracking_request_id: req.id, shipment_id: shipmentId, skipped }, 'initial custom fields skipped');
  }
}

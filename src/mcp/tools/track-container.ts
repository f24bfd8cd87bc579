// track_container: finds what the account already tracks by this number; else works out the carrier with
// number inference and creates a tracking request (the same service as POST /v2/tracking_requests).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { checkContainerNumber, normalizeContainerNumber } from '../../domain/container-number.js';
import { TidemarkError } from '../../domain/errors.js';
import type { NumberInferenceResult } from '../../services/number-inference.js';
import type { RequestType } from '../../services/tracking-requests.js';
import type { ToolContext } from '../context.js';
import { trialRefusal } from '../api-trial.js';
import { kinds, renderWith } from '../render.js';
import { guarded, ok, resourceOutput, toolError } from '../results.js';

const NUMBER_TYPES = ['container', 'bill_of_lading', 'booking_number'] as const;

export function registerTrackContainer(server: McpServer, { deps, account }: ToolContext) {
  const k = kinds(deps);
  server.registerTool(
    'track_container',
    {
      title: 'Track a container, bill of lading or booking',
      description:
        'Starts tracking a number. If the account already tracks it, returns the container (or shipment) at once. Otherwise works out the number type and shipping line (pass `scac` when known) and creates a tracking request, which is pending until the carrier answers: call list_tracking_requests or search_container later to see the result.',
      inputSchema: {
        number: z.string().min(1).max(40).describe('A container number (ISO 6346), bill of lading or booking number'),
        numberType: z.enum(NUMBER_TYPES).optional().describe('What the number is (inferred when omitted)'),
        scac: z.string().min(2).max(10).optional().describe('The shipping line SCAC (inferred when omitted)'),
        refNumbers: z.array(z.string().max(100)).max(20).optional().describe('Your reference numbers for the shipment'),
      },
      outputSchema: {
        result: z.enum(['already_tracked', 'tracking_request_pending', 'tracking_request_created']),
        container: resourceOutput.optional(),
        shipment: resourceOutput.optional(),
        tracking_request: resourceOutput.optional(),
        included: z.array(resourceOutput),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ number, numberType, scac, refNumbers }) =>
      guarded(`Nothing found for ${number}.`, async () => {
        const trimmed = number.trim();
        const asContainer = numberType === 'container' || (numberType === undefined && checkContainerNumber(trimmed).valid);
        // 1. Already tracked? Without API read access (a free account's trial, mcp/api-trial.ts) it says so, but not what.
        const gated = trialRefusal({ deps, account });
        if (asContainer) {
          const { items } = await deps.containers.list(account.id, { number: normalizeContainerNumber(trimmed) }, { limit: 1, offset: 0 });
          if (items[0] && gated)
            return ok(`Container ${items[0].number} is already tracked. ${gated}`, { result: 'already_tracked', included: [] });
          if (items[0]) {
            const { data, included } = await renderWith(k.container, items, ['shipment']);
            return ok(`Container ${items[0].number} is already tracked (status ${items[0].current_status}).`, {
              result: 'already_tracked',
              container: data[0]!,
              included,
            });
          }
        } else {
          const { items } = await deps.shipments.list(account.id, { number: trimmed }, { limit: 1, offset: 0 });
          if (items[0] && gated) return ok(`Shipment ${trimmed} is already tracked. ${gated}`, { result: 'already_tracked', included: [] });
          if (items[0]) {
            const { data, included } = await renderWith(k.shipment, items, ['containers']);
            return ok(`Shipment ${trimmed} is already tracked.`, { result: 'already_tracked', shipment: data[0]!, included });
          }
        }
        const requestNumber = asContainer ? normalizeContainerNumber(trimmed) : trimmed.toUpperCase();
        const open = await deps.trackingRequests.list(
          account.id,
          { requestNumber, statuses: ['pending', 'awaiting_manifest'] },
          { limit: 1, offset: 0 },
        );
        if (open.items[0]) {
          const { data, included } = await renderWith(k.trackingRequest, open.items, []);
          return ok(`A tracking request for ${requestNumber} is already ${open.items[0].status}; the carrier has not answered yet.`, {
            result: 'tracking_request_pending',
            tracking_request: data[0]!,
            included,
          });
        }

        // 2. Which kind of number, which carrier?
        let inference: NumberInferenceResult | null = null;
        try {
          inference = deps.numberInference.infer(account, trimmed);
        } catch (err) {
          if (!(err instanceof TidemarkError) || err.code !== 'validation_failed' || !(numberType && scac)) {
            return toolError(
              `${trimmed} is not a valid container, bill of lading or booking number — check the number; if it is right, call track_container again with numberType and scac.`,
            );
          }
        }
        const type: RequestType = numberType ?? (inference!.numberType === 'booking' ? 'booking_number' : inference!.numberType);
        const candidates = inference?.shippingLine.candidates ?? [];
        const chosen =
          scac?.trim().toUpperCase() || inference?.shippingLine.selected?.scac || (candidates.length === 1 ? candidates[0]!.scac : null);
        if (!chosen) {
          const names = candidates.map((c) => `${c.scac} (${c.name})`).join(', ');
          return toolError(
            `Could not tell which shipping line ${trimmed} belongs to${names ? `; candidates: ${names}` : ''} — call track_container again with scac (get_supported_shipping_lines lists them).`,
          );
        }

        // 3. Create the request, counted like POST /v2/tracking_requests.
        const decision = await deps.rateLimits.take(account, 'create_tracking_request');
        if (!decision.allowed) {
          return toolError(`Too many tracking requests this minute — wait ${decision.retryAfterSeconds} s and call track_container again.`);
        }
        const record = await deps.trackingRequests.create(account, {
          requestType: type,
          requestNumber: trimmed,
          scac: chosen,
          autoDetect: false,
          refNumbers: refNumbers ?? [],
          shipmentTags: [],
          customerId: null,
        });
        const { data, included } = await renderWith(k.trackingRequest, [record], []);
        return ok(
          `Created a tracking request for ${record.request_number} (${type}, ${chosen}); it is pending until the carrier answers. Check it later with list_tracking_requests or search_container.`,
          { result: 'tracking_request_created', tracking_request: data[0]!, included },
        );
      }),
  );
}

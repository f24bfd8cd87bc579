// track-shipment prompt: start (or find) tracking for a number; `carrier` completes from the account's shipping lines.
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';

/** At most this many carrier completions are offered. */
const MAX_COMPLETIONS = 20;

/** SCACs of the shipping lines the account can track whose SCAC (or alternative SCAC) or name starts with `prefix`. */
export function completeCarrier({ deps, account }: ToolContext, prefix: string | undefined): string[] {
  const needle = (prefix ?? '').trim().toLowerCase();
  const starts = (s: string) => s.toLowerCase().startsWith(needle);
  const lines = deps.shippingLines.list(account);
  const byScac = lines.filter((l) => [l.scac, ...l.alternativeScacs].some(starts));
  const byName = lines.filter((l) => !byScac.includes(l) && (starts(l.name) || starts(l.shortName)));
  return [...byScac, ...byName].map((l) => l.scac).slice(0, MAX_COMPLETIONS);
}

/**
 * The optional `carrier` argument with SCAC completion. SDK 1.32.2 looks for the completer on the optional's inner
 * schema when registering (to turn completions on) but on the argument itself when answering, so both carry it.
 */
function carrierArg(ctx: ToolContext) {
  const complete = (value: string | undefined) => completeCarrier(ctx, value);
  const optional = completable(z.string(), complete).optional().describe('SCAC of the shipping line (optional; inferred when omitted)');
  return completable(optional, complete);
}

export function registerTrackShipment(server: McpServer, ctx: ToolContext) {
  server.registerPrompt(
    'track-shipment',
    {
      title: 'Track a shipment',
      description: 'Find a container, bill of lading or booking number in this account, or start tracking it.',
      argsSchema: {
        container_number: z.string().trim().min(1).max(200).describe('A container, bill of lading or booking number'),
        carrier: carrierArg(ctx),
      },
    },
    ({ container_number, carrier }) => {
      const scac = carrier?.trim().toUpperCase();
      const track = scac
        ? `call track_container with number "${container_number}" and scac "${scac}"`
        : `call track_container with number "${container_number}" (the number type and carrier are inferred; if that fails, ask the user for the carrier and check it with get_supported_shipping_lines)`;
      return {
        description: `Track ${container_number}${scac ? ` with ${scac}` : ''}`,
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: [
                `Track the shipment "${container_number}" in Tidemark${scac ? ` (carrier SCAC ${scac})` : ''}.`,
                '',
                `1. Call search_container with query "${container_number}" to see whether it is already tracked.`,
                `2. If a container or shipment is found, call get_container (or get_shipment_details) with its id and report its current_status, the port of discharge, pod_eta_at (or pod_ata_at once arrived) and, if it has arrived, available_for_pickup and the binding last free day: pickup_lfd_binding (whose it is: pickup_lfd_binding_party), with the days left as get_container's last_free_day states them (never counted after pickup). pickup_lfd is only the first given of the line's, terminal's and rail's dates, not necessarily the one that ends free time.`,
                `3. If nothing is found, ${track}. It answers already_tracked (with the container or shipment), tracking_request_pending or tracking_request_created; a pending request is checked later with list_tracking_requests.`,
                '',
                'Report only what the tools return: times are ISO 8601 UTC, ports are UN/LOCODEs and carriers are SCACs. Do not guess values the tools did not give.',
              ].join('\n'),
            },
          },
        ],
      };
    },
  );
}

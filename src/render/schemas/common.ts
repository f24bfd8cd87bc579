// The building blocks of the resource schemas: the closed value sets (each checked against the engine's type),
// instants, nullable text, relationships, the resource-object shapes, holds and fees. Pure: zod and domain vocabulary.
import { z } from 'zod';
import type { LfdParty } from '../../domain/lfd.js';
import { type EventName, PICKUP_CHANGE_EVENT_NAMES, TRANSPORT_EVENT_NAMES } from '../../domain/events.js';
import { FEE_TYPES, HOLD_NAMES } from '../../domain/milestones.js';
import type { EquipmentHeight, EquipmentLength, EquipmentType } from '../../tracking/equipment.js';
import type { FailedReason, StopReason } from '../../tracking/schedule.js';

// ---------- value sets (api-wire-notes §3), each checked against the engine's type ----------

/** `A` and `B` are the same union of literals (fails typecheck otherwise). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <_T extends true>() => {};

export { CONTAINER_STATUSES } from '../../domain/container-statuses.js';

export const EQUIPMENT_TYPES = ['dry', 'reefer', 'open top', 'flat rack', 'bulk', 'tank'] as const;
same<Same<(typeof EQUIPMENT_TYPES)[number], EquipmentType>>();
export const EQUIPMENT_LENGTHS = [10, 20, 40, 45] as const;
same<Same<(typeof EQUIPMENT_LENGTHS)[number], EquipmentLength>>();
export const EQUIPMENT_HEIGHTS = ['standard', 'high_cube'] as const;
same<Same<(typeof EQUIPMENT_HEIGHTS)[number], EquipmentHeight>>();
export const LFD_PARTIES = ['line', 'terminal', 'rail'] as const;
same<Same<(typeof LFD_PARTIES)[number], LfdParty>>();

export const REQUEST_TYPES = ['bill_of_lading', 'booking_number', 'container'] as const;
export const TRACKING_REQUEST_STATUSES = ['pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped'] as const;
export const FAILED_REASONS = [
  'not_found',
  'invalid_number',
  'booking_cancelled',
  'data_unavailable',
  'duplicate',
  'expired',
  'retries_exhausted',
  'scac_auto_detect_failed',
  'plan_limit_reached',
  'shipping_line_unreachable',
  'unrecognized_response',
  'internal_processing_error',
  'awaiting_manifest',
] as const;
same<Same<(typeof FAILED_REASONS)[number], FailedReason>>();
/** The engine's auto-stop reasons, the user's stop, and the reference's `past_full_out_window` (never set here). */
export const STOPPED_REASONS = [
  'all_containers_terminated',
  'past_arrival_window',
  'past_full_out_window',
  'no_updates_at_line',
  'cancelled_by_user',
  'booking_cancelled',
] as const;
same<Same<Exclude<(typeof STOPPED_REASONS)[number], 'past_full_out_window' | 'cancelled_by_user'>, StopReason>>();
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const CONTAINER_EVENT_NAMES = [...TRANSPORT_EVENT_NAMES, ...PICKUP_CHANGE_EVENT_NAMES] as [EventName, ...EventName[]];

// ---------- building blocks ----------

export const ext = (what: string) => `Tidemark extension (docs/extensions.md): ${what}`;

/** An instant as the API writes it: ISO 8601 UTC, second precision, `Z` (`isoSeconds`). */
export const instant = z.iso
  .datetime({ precision: 0 })
  .meta({ id: 'Timestamp', description: 'ISO 8601 UTC with second precision and `Z`: `2026-02-25T15:03:44Z`.' });
export const at = (description?: string) => (description ? instant.nullable().meta({ description }) : instant.nullable());
export const text = (description?: string) => (description ? z.string().nullable().meta({ description }) : z.string().nullable());
export const strings = z.array(z.string());

/** A resource identifier `{id, type}` of one of `types`. */
export function refTo<const T extends [string, ...string[]]>(...types: T) {
  return z.strictObject({ id: z.string(), type: z.enum(types) });
}
/** A to-one relationship: always present, `{data: null}` when empty (api-wire-notes §1.5). */
export const toOne = <const T extends [string, ...string[]]>(...types: T) => z.strictObject({ data: refTo(...types).nullable() });
/** A to-many relationship: always present, `{data: []}` when empty. */
export const toMany = <const T extends [string, ...string[]]>(...types: T) => z.strictObject({ data: z.array(refTo(...types)) });

export interface ResourceOptions<A, R> {
  /** The component's name in the OpenAPI document. */
  id: string;
  description: string;
  attributes: A;
  relationships: R;
}

/** A resource object of `type` without resource `links` (the reference's containers, places and events carry none). */
export function resource<const T extends string, A extends z.ZodObject, R extends z.ZodObject>(type: T, opts: ResourceOptions<A, R>) {
  return z
    .strictObject({ id: z.string(), type: z.literal(type), attributes: opts.attributes, relationships: opts.relationships })
    .meta({ id: opts.id, description: opts.description });
}

/** A resource object that always carries its relative `links.self` (shipment, tracking_request, party …). */
export function linkedResource<const T extends string, A extends z.ZodObject, R extends z.ZodObject>(type: T, opts: ResourceOptions<A, R>) {
  return z
    .strictObject({
      id: z.string(),
      type: z.literal(type),
      attributes: opts.attributes,
      relationships: opts.relationships,
      links: z.strictObject({ self: z.string().meta({ description: 'Relative: `/v2/<type>s/<id>`' }) }),
    })
    .meta({ id: opts.id, description: opts.description });
}

export const hold = z
  .strictObject({ name: z.enum(HOLD_NAMES), status: z.enum(['hold', 'pending']), description: z.string().nullable() })
  .meta({ id: 'Hold', description: 'A hold at a terminal; a cleared hold is absent (there is no released state).' });
export const fee = z
  .strictObject({ type: z.enum(FEE_TYPES), amount: z.number(), currency_code: z.string() })
  .meta({ id: 'Fee', description: 'A fee line as the terminal gives it; a `total` line is never summed with the others.' });
export const providedData = z
  .record(z.string(), z.union([z.boolean(), z.string()]))
  .nullable()
  .meta({ description: 'Per field, whether the source fills it (`true`/`false`), with `<field>_notes` where partial; null when unknown.' });

export type Hold = z.infer<typeof hold>;
export type Fee = z.infer<typeof fee>;

// Words for the API's codes, shared by the pages.
import type { ContainerAttributes, ContainerStatus, ShipmentAttributes } from './resources';

/** A word for every status the API sends (a new one in the schema fails typecheck here). */
const CONTAINER_STATUS: Record<ContainerStatus, string> = {
  new: 'New',
  on_ship: 'On the water',
  available: 'Available',
  not_available: 'Not available',
  grounded: 'Grounded',
  on_rail: 'On rail',
  picked_up: 'Picked up',
  off_dock: 'Off dock',
  delivered: 'Delivered',
  dropped: 'Dropped',
  loaded: 'Loaded',
  empty_returned: 'Empty returned',
  awaiting_inland_transfer: 'Awaiting inland transfer',
};

/** The words of a status; a value outside the set (a search result's shipment status) is humanized. */
export const containerStatusLabel = (s: string | null | undefined) =>
  s ? ((CONTAINER_STATUS as Record<string, string | undefined>)[s] ?? humanize(s)) : '—';

export function containerStatusTone(s: string | null | undefined): 'neutral' | 'good' | 'warn' | 'bad' | 'info' {
  switch (s) {
    case 'available':
      return 'good';
    case 'not_available':
      return 'warn';
    case 'on_ship':
    case 'on_rail':
      return 'info';
    default:
      return 'neutral';
  }
}

/** `snake_case` → `Snake case`. */
export function humanize(code: string): string {
  const s = code.replace(/[_.]+/g, ' ').trim();
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

export function carrierLabel(
  a: Pick<ShipmentAttributes, 'shipping_line_short_name' | 'shipping_line_name' | 'shipping_line_scac'>,
): string {
  return a.shipping_line_short_name || a.shipping_line_name || a.shipping_line_scac || '—';
}

export function placeLabel(name: string | null, locode: string | null): string {
  if (name && locode) return `${name} (${locode})`;
  return name || locode || '—';
}

/** Where a shipment is, in a word, from its dates: tracking stopped, arrived, on the water, or booked. */
export function shipmentStatus(a: ShipmentAttributes): { label: string; tone: 'neutral' | 'good' | 'warn' | 'bad' | 'info' } {
  if (a.line_tracking_stopped_at) return { label: 'Tracking stopped', tone: 'neutral' };
  if (a.destination_ata_at) return { label: 'At destination', tone: 'good' };
  if (a.pod_ata_at) return { label: 'Arrived', tone: 'good' };
  if (a.pol_atd_at) return { label: 'On the water', tone: 'info' };
  return { label: 'Not departed', tone: 'neutral' };
}

export function equipmentLabel(a: Pick<ContainerAttributes, 'equipment_length' | 'equipment_type' | 'equipment_height'>): string {
  const parts = [
    a.equipment_length ? `${a.equipment_length}′` : '',
    a.equipment_height === 'high_cube' ? 'high cube' : '',
    a.equipment_type ?? '',
  ];
  return parts.filter(Boolean).join(' ') || '—';
}

export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

// The carriers the account can track (GET /v2/shipping_lines), read once per page load and shared by the
// filters and the tracking forms.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import type { ListDoc, Resource } from './jsonapi';
import type { ShippingLineAttributes } from './tracking';

export type ShippingLine = Resource<ShippingLineAttributes>;

let cache: Promise<ShippingLine[]> | null = null;

async function loadAll(): Promise<ShippingLine[]> {
  const out: ShippingLine[] = [];
  for (let page = 1; page <= 10; page++) {
    const doc = await api.get<ListDoc<ShippingLineAttributes>>('/v2/shipping_lines', {
      query: { 'page[number]': page, 'page[size]': 100 },
    });
    out.push(...doc.data);
    if (!doc.links?.next || doc.data.length === 0) break;
  }
  return out.sort((a, b) => lineLabel(a).localeCompare(lineLabel(b)));
}

export function shippingLines(): Promise<ShippingLine[]> {
  cache ??= loadAll().catch((err) => {
    cache = null;
    throw err;
  });
  return cache;
}

/** `Maersk (MAEU)`. */
export const lineLabel = (l: ShippingLine) => `${l.attributes.short_name || l.attributes.name} (${l.attributes.scac})`;

/** The shipping lines once loaded (empty until then, or when they could not be read). */
export function useShippingLines(): { lines: ShippingLine[]; failed: boolean } {
  const [state, setState] = useState<{ lines: ShippingLine[]; failed: boolean }>({ lines: [], failed: false });
  useEffect(() => {
    let live = true;
    shippingLines().then(
      (lines) => live && setState({ lines, failed: false }),
      () => live && setState({ lines: [], failed: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

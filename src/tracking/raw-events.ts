// The raw events of a container (GET /v2/containers/{id}/raw_events): what each source said, in its own
// words, from the latest answer of every source, as the reference API lists them (estimated future events
// included). Pure: stored observations in, records out; ids are derived so the same answer keeps its ids.
import { isoSeconds } from '../lib/dates.js';
import { MILESTONES } from '../domain/milestones.js';
import type { MilestoneFact } from '../sources/contract.js';
import { resolvePlace } from './places.js';
import type { FacilityRef, IsoInstant } from './snapshot.js';
import { resolveWhen } from './time.js';

/** The event names the reference API's raw events use: every milestone but these two, listed with `event: null`. */
const RAW_EVENT_NAMES: ReadonlySet<string> = new Set(MILESTONES.filter((m) => m !== 'vessel_berthed' && m !== 'not_available'));

export interface StoredObservation {
  /** The raw observation's id (its payload's row). */
  id: string;
  sourceId: string;
  firstFetchedAt: Date;
  milestones: MilestoneFact[];
}

export interface RawEventRecord {
  /** Stable within an answer: observation id and position. */
  key: string;
  event: string | null;
  original_event: string;
  timestamp: IsoInstant | null;
  estimated: boolean;
  actual_at: IsoInstant | null;
  estimated_at: IsoInstant | null;
  /** The date of a date-only fact (`YYYY-MM-DD`), actual or estimated. */
  actual_on: string | null;
  estimated_on: string | null;
  timezone: string | null;
  created_at: IsoInstant;
  location_name: string | null;
  location_locode: string | null;
  location_type: 'port' | 'metro_area' | null;
  terminal: FacilityRef | null;
  vessel_name: string | null;
  vessel_imo: string | null;
  voyage_number: string | null;
  index: number;
  data_source: 'shipping_line' | 'terminal' | 'rail';
  /** The SCAC of the carrier or railroad whose source it is, when the source id names one (`dcsa:MAEU`). */
  data_provider_code: string | null;
}

function dataSource(sourceId: string): RawEventRecord['data_source'] {
  if (sourceId.startsWith('terminal:')) return 'terminal';
  if (sourceId.startsWith('rail:')) return 'rail';
  return 'shipping_line';
}

/**
 * Every fact of the latest answers that concerns the container (its own, and the shipment-level ones such as
 * a vessel's departure), in time order; `index` numbers them.
 */
export function rawEvents(containerNumber: string, observations: readonly StoredObservation[]): RawEventRecord[] {
  const out: Omit<RawEventRecord, 'index'>[] = [];
  for (const o of observations) {
    const source = dataSource(o.sourceId);
    const provider = source === 'shipping_line' && o.sourceId.includes(':') ? o.sourceId.split(':')[1]!.toUpperCase() : null;
    o.milestones.forEach((m, i) => {
      if (m.containerNumber !== null && m.containerNumber !== containerNumber) return;
      const place = resolvePlace(m.place, m.mode === 'rail' ? 'rail_terminal' : 'terminal');
      const when = resolveWhen(m.when, place?.timezone ?? null);
      const estimated = m.classifier !== 'actual';
      const dateOnly = !m.when.at && !m.when.localDateTime ? m.when.localDate : null;
      out.push({
        key: `${o.id}:${i}`,
        event: RAW_EVENT_NAMES.has(m.milestone) ? m.milestone : null,
        original_event: m.sourceCode,
        timestamp: when?.at ?? null,
        estimated,
        actual_at: estimated ? null : (when?.at ?? null),
        estimated_at: estimated ? (when?.at ?? null) : null,
        actual_on: !estimated ? dateOnly : null,
        estimated_on: estimated ? dateOnly : null,
        timezone: when?.timezone ?? null,
        created_at: isoSeconds(o.firstFetchedAt),
        location_name: m.place?.name ?? place?.name ?? null,
        location_locode: place?.locode ?? null,
        location_type: place?.locationType ?? null,
        terminal: place?.facility ?? null,
        vessel_name: m.vessel?.name ?? null,
        vessel_imo: m.vessel?.imo ?? null,
        voyage_number: m.voyage,
        data_source: source,
        data_provider_code: provider,
      });
    });
  }
  out.sort((a, b) => (a.timestamp ?? '\uffff').localeCompare(b.timestamp ?? '\uffff') || a.key.localeCompare(b.key));
  return out.map((r, index) => ({ ...r, index }));
}

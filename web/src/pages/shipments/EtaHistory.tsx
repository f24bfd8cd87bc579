// The ETA history of a shipment (GET /v2/shipments/{id}/estimated_events, newest first): every estimated arrival
// as it was heard, and how much each moved from the one before.
import { useState } from 'preact/hooks';
import { Async } from '../../components/Async';
import { type Column, DataTable } from '../../components/DataTable';
import { Time } from '../../components/Time';
import { api } from '../../lib/api';
import { etaShift } from '../../lib/eta';
import { useLoad } from '../../lib/hooks';
import type { ListDoc, Resource } from '../../lib/jsonapi';
import { type EstimatedEventAttributes, sourceLabel } from '../../lib/tracking';
import { useWorldAdvanced } from '../../lib/world';

type Estimate = Resource<EstimatedEventAttributes>;

/** Rows shown until the user asks for all. */
const SHOWN = 8;

export function EtaHistory({ shipmentId }: { shipmentId: string }) {
  const list = useLoad(
    (signal) =>
      api.get<ListDoc<EstimatedEventAttributes>>(`/v2/shipments/${encodeURIComponent(shipmentId)}/estimated_events`, {
        signal,
        query: { 'page[size]': 100 },
      }),
    [shipmentId],
  );
  useWorldAdvanced(list.reload);
  const [all, setAll] = useState(false);
  return (
    <Async state={list} label="Loading the ETA history…">
      {(d) => {
        if (!d.data.length) return <p class="empty-state">No estimated arrival has been announced yet.</p>;
        // Newest first: each one compared with the one heard before it (the next row).
        const previous = new Map<string, Estimate | undefined>(d.data.map((e, i) => [e.id, d.data[i + 1]]));
        const columns: Column<Estimate>[] = [
          {
            key: 'eta',
            header: 'Estimated arrival',
            rowHeader: true,
            cell: (e) => <Time domain value={e.attributes.estimated_timestamp} zone={e.attributes.timezone} mode="absolute" />,
          },
          {
            key: 'change',
            header: 'Change',
            cell: (e) => {
              const before = previous.get(e.id);
              if (!before) return <span class="muted">First announced</span>;
              const shift = etaShift(e.attributes.estimated_timestamp, before.attributes.estimated_timestamp);
              return shift ? <span class={`eta-shift eta-shift-${shift.tone}`}>{shift.ms === 0 ? 'unchanged' : shift.text}</span> : '—';
            },
          },
          { key: 'port', header: 'Port', cell: (e) => e.attributes.location_locode ?? '—' },
          { key: 'voyage', header: 'Voyage', cell: (e) => e.attributes.voyage_number ?? '—' },
          { key: 'source', header: 'Source', cell: (e) => sourceLabel(e.attributes.data_source) },
          { key: 'heard', header: 'Heard', cell: (e) => <Time value={e.attributes.created_at} mode="relative" /> },
        ];
        return (
          <>
            <DataTable
              caption="ETA history, newest first"
              hideCaption
              columns={columns}
              rows={all ? d.data : d.data.slice(0, SHOWN)}
              rowKey={(e) => e.id}
            />
            {d.data.length > SHOWN && (
              <button type="button" class="button-secondary button-small" aria-expanded={all} onClick={() => setAll(!all)}>
                {all ? `Show the ${SHOWN} newest only` : `Show all ${d.data.length} estimates`}
              </button>
            )}
            {(d.meta?.total ?? 0) > d.data.length && <p class="muted">The {d.data.length} newest of {d.meta?.total} estimates.</p>}
          </>
        );
      }}
    </Async>
  );
}

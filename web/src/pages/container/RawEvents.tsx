// What each source said about the container, in its own words (GET /v2/containers/{id}/raw_events).
import { type Column, DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Facts';
import { Time } from '../../components/Time';
import { humanize } from '../../lib/labels';
import { type RawEvent, sourceLabel } from '../../lib/tracking';

export function RawEventsTable({ events }: { events: RawEvent[] }) {
  if (!events.length) return <p class="empty-state">No source has reported anything yet.</p>;
  const columns: Column<RawEvent>[] = [
    {
      key: 'when',
      header: 'When (local)',
      cell: (e) => <Time domain value={e.attributes.timestamp} zone={e.attributes.timezone} mode="absolute" />,
      sortValue: (e) => e.attributes.timestamp,
    },
    {
      key: 'event',
      header: 'Event',
      rowHeader: true,
      cell: (e) => (
        <span>
          {e.attributes.event ? humanize(e.attributes.event) : <span class="muted">Unmapped</span>}{' '}
          {e.attributes.estimated && <Badge tone="info">Estimated</Badge>}
          {e.attributes.invalidated_at && <Badge tone="neutral">Withdrawn</Badge>}
        </span>
      ),
      sortValue: (e) => e.attributes.event,
    },
    { key: 'original', header: 'As the source said', cell: (e) => <code>{e.attributes.original_event ?? '—'}</code> },
    {
      key: 'place',
      header: 'Place',
      cell: (e) => [e.attributes.location_name, e.attributes.location_locode].filter(Boolean).join(' ') || '—',
      sortValue: (e) => e.attributes.location_locode,
    },
    {
      key: 'vessel',
      header: 'Vessel / voyage',
      cell: (e) => [e.attributes.vessel_name, e.attributes.voyage_number].filter(Boolean).join(' / ') || '—',
    },
    {
      key: 'source',
      header: 'Source',
      cell: (e) => `${sourceLabel(e.attributes.data_source)}${e.attributes.data_provider_code ? ` (${e.attributes.data_provider_code})` : ''}`,
      sortValue: (e) => e.attributes.data_source,
    },
  ];
  return (
    <DataTable
      caption="Raw events"
      hideCaption
      columns={columns}
      rows={events}
      rowKey={(e) => e.id}
      initialSort={{ key: 'when', dir: 'asc' }}
    />
  );
}

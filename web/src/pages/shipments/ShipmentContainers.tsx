// A shipment's containers: status, availability in words, holds and the binding last free day (whose it is, the
// days left or how the pickup fell against it, the others' dates beside it). The selected one (`?container=<id>`, as the deep link /shipments/find sends it) is highlighted and summed up.
import { type Column, DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Facts';
import { bindingSortValue, LfdCell } from '../../components/Lfd';
import { Time } from '../../components/Time';
import { useWorldNow } from '../../lib/clock';
import { containerStatusLabel, containerStatusTone, equipmentLabel } from '../../lib/labels';
import { lfdStanding, standingSentence } from '../../lib/lfd';
import { readinessVerdict } from '../../lib/readiness';
import { Link, setQuery } from '../../lib/router';
import { type ContainerResource, holdLabel } from '../../lib/tracking';

export function ShipmentContainers({ containers, selected }: { containers: ContainerResource[]; selected: string | null }) {
  const now = useWorldNow();
  const columns: Column<ContainerResource>[] = [
    {
      key: 'number',
      header: 'Container',
      rowHeader: true,
      cell: (c) => (
        <span class="container-cell">
          <Link href={`/containers/${c.id}`} class="strong-link">
            {c.attributes.number}
          </Link>
          {c.id === selected && <span class="badge badge-info selected-mark">Selected</span>}
          <span class="muted small">{equipmentLabel(c.attributes)}</span>
        </span>
      ),
      sortValue: (c) => c.attributes.number,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (c) => <Badge tone={containerStatusTone(c.attributes.current_status)}>{containerStatusLabel(c.attributes.current_status)}</Badge>,
      sortValue: (c) => c.attributes.current_status,
    },
    {
      key: 'availability',
      header: 'Availability',
      cell: (c) => {
        const v = readinessVerdict(c.attributes);
        return <Badge tone={v.tone}>{v.text}</Badge>;
      },
      sortValue: (c) => readinessVerdict(c.attributes).text,
    },
    {
      key: 'holds',
      header: 'Holds',
      cell: (c) =>
        (c.attributes.holds_at_pod_terminal ?? [])
          .map((h) => `${holdLabel(h.name)}${h.status === 'pending' ? ' (pending)' : ''}`)
          .join(', ') || <span class="muted">None</span>,
      sortValue: (c) => (c.attributes.holds_at_pod_terminal ?? []).length,
    },
    {
      key: 'lfd',
      header: 'Last free day',
      cell: (c) => <LfdCell c={c.attributes} now={now} />,
      sortValue: (c) => bindingSortValue(c.attributes),
    },
    {
      key: 'route',
      header: <span class="visually-hidden">Route</span>,
      cell: (c) =>
        containers.length > 1 && c.id !== selected ? (
          <button type="button" class="button-quiet button-small" onClick={() => setQuery({ container: c.id }, { replace: true })}>
            Show route<span class="visually-hidden"> of {c.attributes.number}</span>
          </button>
        ) : null,
    },
  ];
  return (
    <DataTable
      caption="Containers of this shipment"
      hideCaption
      columns={containers.length > 1 ? columns : columns.slice(0, -1)}
      rows={containers}
      rowKey={(c) => c.id}
      rowClass={(c) => (c.id === selected ? 'row-selected' : undefined)}
      empty="No containers known yet."
    />
  );
}

/** The selected container in a few words, with the way to its page. */
export function SelectedContainer({ c }: { c: ContainerResource }) {
  const now = useWorldNow();
  const v = readinessVerdict(c.attributes);
  const standing = lfdStanding(c.attributes, now);
  const sentence = standingSentence(standing);
  return (
    <section class="panel selected-container" aria-labelledby="selected-container-title">
      <h2 id="selected-container-title" class="selected-title">
        Container {c.attributes.number}
      </h2>
      <p class="selected-facts">
        <Badge tone={containerStatusTone(c.attributes.current_status)}>{containerStatusLabel(c.attributes.current_status)}</Badge>{' '}
        <Badge tone={v.tone}>{v.text}</Badge>
        {standing.binding && (
          <>
            {' '}
            <span class="nowrap">
              {sentence ?? 'Last free day'} (<Time domain value={standing.binding.value} zone={standing.binding.zone} dateOnly mode="absolute" />)
            </span>
          </>
        )}
      </p>
      <p>
        <Link href={`/containers/${c.id}`}>Open container {c.attributes.number}</Link>
      </p>
    </section>
  );
}

// The container's milestones (its transport events, oldest first) as a timeline: facts with a filled marker and
// "Actual", forecasts with a hollow dashed marker and "Estimated"; each at its place's local time with the zone.
import { Badge } from '../../components/Facts';
import { Time } from '../../components/Time';
import { Included, type Resource } from '../../lib/jsonapi';
import { eventInfo, isMilestone, milestonesOldestFirst, type PlaceAttributes, placeName, sourceLabel, type TerminalAttributes, type TransportEvent, type VesselAttributes } from '../../lib/tracking';

export function Milestones({ events, included, now }: { events: TransportEvent[]; included: Resource[] | undefined; now: Date }) {
  const inc = new Included(included);
  const list = milestonesOldestFirst(events.filter((e) => isMilestone(e) && !e.attributes.invalidated_at));
  if (!list.length) return <p class="empty-state">No milestones yet: the carrier has not reported any event.</p>;
  const nextIndex = list.findIndex((e) => eventInfo(e.attributes.event).estimated || Date.parse(e.attributes.timestamp ?? '') > now.getTime());
  return (
    <ol class="timeline milestones" aria-label="Milestones, oldest first">
      {list.map((e, i) => {
        const info = eventInfo(e.attributes.event);
        const place = inc.get<PlaceAttributes>(e.relationships?.location?.data as never)?.attributes;
        const terminal = inc.get<TerminalAttributes>(e.relationships?.terminal?.data as never)?.attributes;
        const vessel = inc.get<VesselAttributes>(e.relationships?.vessel?.data as never)?.attributes;
        return (
          <li
            key={e.id}
            class={`timeline-item milestone ${info.estimated ? 'is-estimated' : 'is-actual'}${i === nextIndex ? ' is-next' : ''}`}
            data-event={e.attributes.event}
          >
            <span class="timeline-marker" aria-hidden="true" />
            <div class="timeline-body">
              <p class="timeline-title">
                {info.estimated ? <Badge tone="info">Estimated</Badge> : <Badge tone="good">Actual</Badge>} <strong>{info.label.replace(' (estimated)', '')}</strong>
              </p>
              <p class="timeline-moment">
                <Time domain value={e.attributes.timestamp} zone={e.attributes.timezone} />
              </p>
              <p class="muted small">
                {placeName(place, e.attributes.location_locode)}
                {terminal ? ` · ${terminal.nickname || terminal.name}` : ''}
                {vessel?.name ? ` · ${vessel.name}` : ''}
                {e.attributes.voyage_number ? ` / ${e.attributes.voyage_number}` : ''} · {sourceLabel(e.attributes.data_source)}
              </p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

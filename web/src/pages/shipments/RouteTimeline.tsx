// The route as a timeline: each stop (port of lading, transshipments and rail interchanges, port of discharge,
// inland destination) with its arrival and departure, and the leg between stops. Facts and estimates look and
// read differently: a filled marker and "Actual" against a hollow dashed marker and "Estimated".
import { Badge } from '../../components/Facts';
import { Time } from '../../components/Time';
import { etaShift } from '../../lib/eta';
import { type Moment, ROLE_WORDS, type Route } from '../../lib/route';

export function RouteTimeline({ route }: { route: Route }) {
  return (
    <ol class="timeline route-timeline">
      {route.stops.map((stop, i) => {
        const reached = !!(stop.arrival?.actual || stop.departure?.actual);
        const leg = route.legs[i];
        return (
          <li key={`${stop.role}-${stop.locode}-${i}`} class={`timeline-item ${reached ? 'is-actual' : 'is-estimated'}`}>
            <span class="timeline-marker" aria-hidden="true" />
            <div class="timeline-body">
              <p class="timeline-title">
                <strong>{stop.name}</strong>
                {stop.locode && stop.locode !== stop.name && <span class="muted"> {stop.locode}</span>}
                <span class="route-role"> · {ROLE_WORDS[stop.role]}</span>
              </p>
              {stop.arrival && <MomentLine m={stop.arrival} />}
              {stop.departure && <MomentLine m={stop.departure} />}
              {!stop.arrival && !stop.departure && <p class="muted">No date known yet.</p>}
            </div>
            {leg && (
              <p class={`route-leg ${leg.done ? 'route-leg-done' : leg.underway ? 'route-leg-underway' : 'route-leg-planned'}`}>
                {leg.mode === 'rail' ? 'By rail' : 'By sea'}
                {leg.vessel ? ` on ${leg.vessel}` : ''}
                {leg.voyage ? `, voyage ${leg.voyage}` : ''}
                {leg.done ? '' : leg.underway ? ' (under way)' : ' (planned)'}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

function MomentLine({ m }: { m: Moment }) {
  const shift = !m.actual ? etaShift(m.at, m.original) : null;
  return (
    <p class="timeline-moment">
      {m.actual ? <Badge tone="good">Actual</Badge> : <Badge tone="info">Estimated</Badge>} {m.label}{' '}
      <Time domain value={m.at} zone={m.zone} />
      {shift && shift.ms !== 0 && <span class={`eta-shift eta-shift-${shift.tone}`}>{shift.text} than first announced</span>}
    </p>
  );
}

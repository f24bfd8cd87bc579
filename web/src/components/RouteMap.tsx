// The route on a map drawn offline: the land from the bundled world-atlas shapes (lib/worldMap.ts, loaded as
// its own chunk the first time a map is shown) and, over it, one of two things:
// - the container's map (`geo`, from GET /v2/containers/{id}/map_geojson, accounts with `routing`): the ports
//   with their labels (POL, TS1…, POD; filled once reached), the vessel's recorded AIS track (solid), the
//   estimated legs ahead (dashed), estimated legs already sailed without a track (solid green, as travelled legs
//   are), the predicted route from the vessel to its next port (dash-dotted, in its own colour) and the vessel
//   itself (an arrow turned to its heading); the inland stops and rail legs of `route` are added;
// - otherwise the `route` the timeline lists: stops (filled once reached), legs along great circles (solid
//   once travelled, dashed while planned).
// The SVG is one labelled image; a key and a list under it say in words what it shows (ports with their
// ETA/ATA, the vessel's position and time, the lines).
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { type ContainerMap, formatPosition, framePoints, type MapLine, type MapPort } from '../lib/containerMap';
import type { Route, Stop } from '../lib/route';
import { formatWithZone } from '../lib/time';
import type { LonLat, WorldMap } from '../lib/worldMap';
import { Time } from './Time';

type Module = typeof import('../lib/worldMap');
let loading: Promise<Module> | null = null;
const loadMap = () => {
  loading ??= import('../lib/worldMap').catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
};

const WIDTH = 800;
const HEIGHT = 420;

/** Tidemark's predicted arrival at the port the vessel sails to (said beside the predicted route). */
export interface PredictedArrival {
  at: string;
  zone: string | null;
}

const placed = (s: Stop) => s.lat !== null && s.lon !== null;
const lonLat = (s: Stop): LonLat => [s.lon!, s.lat!];
const INLAND = new Set(['rail', 'destination']);

export function RouteMap({
  route,
  geo,
  predicted,
  description,
}: {
  /** The stops and legs of the timeline (the shipment page); drawn alone when there is no `geo`. */
  route?: Route | null;
  /** The container's map_geojson, read (accounts with `routing`). */
  geo?: ContainerMap | null;
  predicted?: PredictedArrival | null;
  /** What the map shows, in words, for the route alone (the container's map describes itself). */
  description?: string;
}) {
  const [mod, setMod] = useState<Module | null>(null);
  const [failed, setFailed] = useState(false);
  const titleId = useId();
  const descId = useId();
  useEffect(() => {
    let live = true;
    loadMap().then(
      (m) => live && setMod(m),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  const ocean = geo?.ports.length ? geo : null;
  const stops = route?.stops ?? [];
  // With the container's map, the route adds only what is inland of the POD (rail interchanges, destination).
  const extraStops = ocean ? stops.filter((s) => INLAND.has(s.role) && placed(s)) : stops.filter(placed);
  const extraLegs = (route?.legs ?? []).flatMap((leg, i) => {
    const a = stops[i]!;
    const b = stops[i + 1]!;
    if (!placed(a) || !placed(b)) return [];
    if (ocean && !INLAND.has(a.role) && !INLAND.has(b.role)) return [];
    return [{ leg, key: `leg-${i}`, points: [lonLat(a), lonLat(b)] }];
  });
  const focus: LonLat[] = [...(ocean ? framePoints(ocean) : []), ...extraStops.map(lonLat)];
  // Projecting the world is the costly part: only again when the places to frame change.
  const map: WorldMap | null = useMemo(() => (mod && focus.length ? mod.drawWorld(focus, WIDTH, HEIGHT, 56) : null), [mod, JSON.stringify(focus)]);
  if (failed) return <p class="muted">The map could not be loaded; the route is listed beside it.</p>;
  if (!focus.length) return <p class="muted">No position is known for the ports of this shipment yet.</p>;

  const lines = ocean?.lines ?? [];
  const has = (kind: MapLine['kind']) => lines.some((l) => l.kind === kind);
  const vessel = ocean?.vessel ?? null;
  const at = (p: LonLat) => {
    const xy = map?.project(p);
    return xy ? `translate(${xy[0].toFixed(1)} ${xy[1].toFixed(1)})` : null;
  };

  return (
    <div class="route-map-wrap">
      <figure class="route-map">
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${titleId} ${descId}`}
          class={map ? 'map-svg' : 'map-svg map-loading'}
          preserveAspectRatio="xMidYMid meet"
          data-testid="route-map"
        >
          <title id={titleId}>{ocean ? 'Map of the container’s route' : 'Map of the route'}</title>
          <desc id={descId}>{ocean ? describeOcean(ocean, extraStops, predicted) : (description ?? describeRoute(stops))}</desc>
          <rect class="map-sea" x="0" y="0" width={WIDTH} height={HEIGHT} />
          {map && (
            <>
              <path class="map-land" d={map.land} />
              <path class="map-borders" d={map.borders} />
              {extraLegs.map(({ leg, key, points }) => (
                <path key={key} class={`map-leg map-leg-${leg.mode}${leg.done ? ' map-leg-done' : ' map-leg-planned'}`} d={map.line(points)} />
              ))}
              {lines.map((l, i) => (
                <path key={`${l.kind}-${l.sequence}-${i}`} class={LINE_CLASS[l.kind]} data-testid={`map-${l.kind}`} d={map.line(l.points)} />
              ))}
              {extraStops.map((s) => {
                const t = at(lonLat(s));
                if (!t) return null;
                const reached = !!(s.arrival?.actual || s.departure?.actual);
                return (
                  <g key={`${s.role}-${s.locode}`} transform={t}>
                    <circle class={reached ? 'map-stop map-stop-reached' : 'map-stop map-stop-planned'} r="6" />
                    <text class="map-label" x="9" y="-8">
                      {s.locode ?? s.name}
                    </text>
                  </g>
                );
              })}
              {ocean?.ports.map((p) => {
                const t = at(p.at);
                if (!t) return null;
                return (
                  <g key={`port-${p.sequence}`} transform={t} data-testid="map-port" data-label={p.label}>
                    <circle class={reachedPort(p) ? 'map-stop map-stop-reached' : 'map-stop map-stop-planned'} r="6" />
                    <text class="map-label" x="9" y="-8">
                      {p.label || p.name}
                    </text>
                  </g>
                );
              })}
              {vessel &&
                (() => {
                  const t = at(vessel.at);
                  if (!t) return null;
                  return (
                    <g transform={t} data-testid="map-vessel" data-heading={vessel.heading ?? ''}>
                      {vessel.heading === null ? (
                        <circle class="map-vessel" r="7" />
                      ) : (
                        <path class="map-vessel" transform={`rotate(${vessel.heading})`} d="M0,-11 L7,8 L0,4 L-7,8 Z" />
                      )}
                    </g>
                  );
                })()}
            </>
          )}
        </svg>
        <figcaption class="map-legend">
          <span>
            <span class="legend-swatch legend-reached" aria-hidden="true" /> port reached
          </span>
          <span>
            <span class="legend-swatch legend-planned" aria-hidden="true" /> port ahead
          </span>
          {ocean ? (
            <>
              {has('track') && (
                <span>
                  <span class="legend-line legend-track" aria-hidden="true" /> sailed (AIS track)
                </span>
              )}
              {(has('sailed') || extraLegs.some((l) => l.leg.done)) && (
                <span>
                  <span class="legend-line legend-done" aria-hidden="true" /> travelled
                </span>
              )}
              {(has('planned') || extraLegs.some((l) => !l.leg.done)) && (
                <span>
                  <span class="legend-line legend-ahead" aria-hidden="true" /> planned
                </span>
              )}
              {has('predicted') && (
                <span>
                  <span class="legend-line legend-predicted" aria-hidden="true" /> predicted
                </span>
              )}
            </>
          ) : (
            <>
              <span>
                <span class="legend-line legend-done" aria-hidden="true" /> travelled
              </span>
              <span>
                <span class="legend-line legend-ahead" aria-hidden="true" /> planned
              </span>
            </>
          )}
          {vessel && (
            <span>
              <span class="legend-vessel" aria-hidden="true">
                ▲
              </span>{' '}
              {vessel.name}
            </span>
          )}
          {!map && <span class="muted">Drawing the map…</span>}
        </figcaption>
      </figure>
      {ocean && <OnTheMap map={ocean} predicted={predicted} />}
    </div>
  );
}

const LINE_CLASS: Record<MapLine['kind'], string> = {
  track: 'map-track',
  sailed: 'map-leg map-leg-vessel map-leg-done',
  planned: 'map-leg map-leg-vessel map-leg-planned',
  predicted: 'map-leg map-predicted',
};

const reachedPort = (p: MapPort) => !!(p.ata || p.atd);
const portName = (p: MapPort | undefined) => (p ? `${p.name}${p.label ? ` (${p.label})` : ''}` : 'the next port');

/** The port after the one a leg leaves (`sequence`). */
const nextPort = (map: ContainerMap, sequence: number) => map.ports.find((p) => p.sequence > sequence);

/** The map in words: every port with its times, the vessel, and each line. */
function OnTheMap({ map, predicted }: { map: ContainerMap; predicted?: PredictedArrival | null }) {
  const v = map.vessel;
  const items: ComponentChildren[] = map.ports.map((p) => (
    <li key={`port-${p.sequence}`} data-testid="map-legend-port">
      <strong>{p.label || `Port ${p.sequence}`}</strong> {p.name}
      {p.country ? `, ${p.country}` : ''}
      {portTimes(p)}
    </li>
  ));
  if (v)
    items.push(
      <li key="vessel" data-testid="map-legend-vessel">
        <strong>Vessel</strong> {v.name}
        {v.voyage ? ` (voyage ${v.voyage})` : ''} at {formatPosition(v.at)}
        {v.heading !== null ? `, heading ${Math.round(v.heading)}°` : ''}
        {v.knots !== null ? `, ${v.knots.toFixed(1)} kn` : ''}
        {v.time && (
          <>
            , reported <Time domain value={v.time} zone="UTC" />
          </>
        )}
      </li>,
    );
  map.lines.forEach((l, i) => {
    const from = map.ports.find((p) => p.sequence === l.sequence);
    const to = nextPort(map, l.sequence);
    items.push(
      <li key={`line-${i}`} data-testid={`map-legend-${l.kind}`}>
        {l.kind === 'track' ? (
          <>
            <strong>Sailed</strong> (solid line): the vessel’s recorded track from {portName(from)}
            {l.start && l.end && (
              <>
                , positions from <Time mode="absolute" value={l.start} zone="UTC" /> to <Time mode="absolute" value={l.end} zone="UTC" />
              </>
            )}
          </>
        ) : l.kind === 'predicted' ? (
          <>
            <strong>Predicted</strong> (dashed line): the sea route from the vessel to {portName(to)}
            {predicted && to?.label === 'POD' ? (
              <>
                , arriving <Time domain value={predicted.at} zone={predicted.zone ?? to.zone} /> by Tidemark’s estimate
              </>
            ) : (
              ''
            )}
          </>
        ) : l.kind === 'sailed' ? (
          <>
            <strong>Travelled</strong> (solid green line): the estimated sea route from {portName(from)} to {portName(to)}, no AIS
            track
          </>
        ) : (
          <>
            <strong>Planned</strong> (dashed line): the estimated sea route from {portName(from)} to {portName(to)}
          </>
        )}
      </li>,
    );
  });
  return (
    <ul class="map-facts" aria-label="What the map shows" data-testid="map-legend">
      {items}
    </ul>
  );
}

function portTimes(p: MapPort) {
  const arrival = p.ata ? (
    <>
      arrived <Time domain value={p.ata} zone={p.zone} />
    </>
  ) : p.eta ? (
    <>
      estimated arrival <Time domain value={p.eta} zone={p.zone} />
    </>
  ) : null;
  const departure = p.atd ? (
    <>
      departed <Time domain value={p.atd} zone={p.zone} />
    </>
  ) : p.etd ? (
    <>
      estimated departure <Time domain value={p.etd} zone={p.zone} />
    </>
  ) : null;
  if (!arrival && !departure) return ': no date known yet';
  return (
    <>
      {arrival && <>: {arrival}</>}
      {departure && (
        <>
          {arrival ? '; ' : ': '}
          {departure}
        </>
      )}
    </>
  );
}

function describeRoute(stops: Stop[]): string {
  return `Route: ${stops.map((s) => `${s.name}${s.locode ? ` (${s.locode})` : ''}`).join(' → ')}.`;
}

function describeOcean(map: ContainerMap, inland: Stop[], predicted: PredictedArrival | null | undefined): string {
  const ports = [...map.ports.map((p) => portName(p)), ...inland.map((s) => `${s.name}${s.locode ? ` (${s.locode})` : ''}`)];
  const out = [`Route: ${ports.join(' → ')}.`];
  const v = map.vessel;
  if (v) out.push(`${v.name} at ${formatPosition(v.at)}${v.time ? `, reported ${formatWithZone(v.time, 'UTC')}` : ''}.`);
  if (map.lines.some((l) => l.kind === 'track')) out.push('Its recorded track is drawn solid.');
  const p = map.lines.find((l) => l.kind === 'predicted');
  if (p) {
    const to = nextPort(map, p.sequence);
    const when = predicted && to?.label === 'POD' ? `, arriving ${formatWithZone(predicted.at, predicted.zone ?? to.zone)}` : '';
    out.push(`The predicted route on to ${portName(to)} is dashed${when}.`);
  }
  if (map.lines.some((l) => l.kind === 'sailed')) out.push('Legs travelled without an AIS track are solid green.');
  if (map.lines.some((l) => l.kind === 'planned')) out.push('Planned legs are dashed.');
  return out.join(' ');
}

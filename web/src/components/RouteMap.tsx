// The route on a map drawn offline: the land from the bundled world-atlas shapes (lib/worldMap.ts, loaded as
// its own chunk the first time a map is shown), the stops as markers (filled once reached), the legs along
// great circles (solid once sailed, dashed while planned), and the vessel's track and latest position when
// given. The map repeats what the route timeline says in words; it is labelled as one image.
import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import type { Route } from '../lib/route';
import type { LonLat, WorldMap } from '../lib/worldMap';

type Module = typeof import('../lib/worldMap');
let loading: Promise<Module> | null = null;
const loadMap = () => {
  loading ??= import('../lib/worldMap').catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
};

export interface VesselMark {
  name: string;
  lon: number;
  lat: number;
  heading: number | null;
  /** When that position was reported (for the description). */
  at: string | null;
}

const WIDTH = 800;
const HEIGHT = 420;

export function RouteMap({ route, track, vessel, description }: { route: Route; track?: LonLat[]; vessel?: VesselMark | null; description: string }) {
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

  const placed = route.stops.filter((s) => s.lat !== null && s.lon !== null);
  const focus: LonLat[] = [...placed.map((s) => [s.lon!, s.lat!] as LonLat), ...(vessel ? [[vessel.lon, vessel.lat] as LonLat] : [])];
  // Projecting the world is the costly part: only again when the places to frame change.
  const map: WorldMap | null = useMemo(() => (mod && focus.length ? mod.drawWorld(focus, WIDTH, HEIGHT, 56) : null), [mod, JSON.stringify(focus)]);
  if (failed) return <p class="muted">The map could not be loaded; the route is listed beside it.</p>;
  if (!placed.length) return <p class="muted">No position is known for the ports of this shipment yet.</p>;

  return (
    <figure class="route-map">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        class={map ? 'map-svg' : 'map-svg map-loading'}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={titleId}>Map of the route</title>
        <desc id={descId}>{description}</desc>
        <rect class="map-sea" x="0" y="0" width={WIDTH} height={HEIGHT} />
        {map && (
          <>
            <path class="map-land" d={map.land} />
            <path class="map-borders" d={map.borders} />
            {route.legs.map((leg, i) => {
              const a = route.stops[i]!;
              const b = route.stops[i + 1]!;
              if (a.lat === null || a.lon === null || b.lat === null || b.lon === null) return null;
              const d = map!.line([
                [a.lon, a.lat],
                [b.lon, b.lat],
              ]);
              return <path key={`leg-${i}`} class={`map-leg map-leg-${leg.mode}${leg.done ? ' map-leg-done' : ' map-leg-planned'}`} d={d} />;
            })}
            {track && track.length > 1 && <path class="map-track" d={map.line(track)} />}
            {placed.map((s) => {
              const xy = map!.project([s.lon!, s.lat!]);
              if (!xy) return null;
              const reached = !!(s.arrival?.actual || s.departure?.actual);
              return (
                <g key={`${s.role}-${s.locode}`} transform={`translate(${xy[0].toFixed(1)} ${xy[1].toFixed(1)})`}>
                  <circle class={reached ? 'map-stop map-stop-reached' : 'map-stop map-stop-planned'} r="6" />
                  <text class="map-label" x="9" y="-8">
                    {s.locode ?? s.name}
                  </text>
                </g>
              );
            })}
            {vessel &&
              (() => {
                const xy = map!.project([vessel.lon, vessel.lat]);
                if (!xy) return null;
                return (
                  <g transform={`translate(${xy[0].toFixed(1)} ${xy[1].toFixed(1)}) rotate(${vessel.heading ?? 0})`}>
                    <path class="map-vessel" d="M0,-11 L7,8 L0,4 L-7,8 Z" />
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
        <span>
          <span class="legend-line legend-done" aria-hidden="true" /> travelled
        </span>
        <span>
          <span class="legend-line legend-ahead" aria-hidden="true" /> planned
        </span>
        {vessel && (
          <span>
            <span class="legend-vessel" aria-hidden="true">
              ▲
            </span>{' '}
            {vessel.name}
            {track && track.length > 1 ? ' and its track' : ''}
          </span>
        )}
        {!map && <span class="muted">Drawing the map…</span>}
      </figcaption>
    </figure>
  );
}

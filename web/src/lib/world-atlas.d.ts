// The Natural Earth country shapes of the `world-atlas` package (TopoJSON), imported by lib/worldMap.ts.
declare module 'world-atlas/countries-110m.json' {
  import type { GeometryCollection, Topology } from 'topojson-specification';
  const topology: Topology<{ countries: GeometryCollection; land: GeometryCollection }>;
  export default topology;
}

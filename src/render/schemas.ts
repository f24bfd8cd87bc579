// The wire shape of every resource the API serves, in zod: the one source the route response schemas,
// /v2/openapi.json (named components) and the web app's API types are made from. Exact on purpose: a renderer
// that emits an attribute a schema lacks (or a null where it says never) fails src/render/schemas.test.ts and
// the response checks of the route suites. The schemas live in src/render/schemas/, one module per subject; this
// module re-exports them, so every importer has one path. They import zod and pure domain vocabulary only (engine
// types as type-only imports, which are erased), so the web app can take their types.
export {
  CONTAINER_STATUSES,
  DELIVERY_STATUSES,
  FAILED_REASONS,
  type Fee,
  type Hold,
  instant,
  REQUEST_TYPES,
  refTo,
  STOPPED_REASONS,
  TRACKING_REQUEST_STATUSES,
  toMany,
  toOne,
} from './schemas/common.js';
export * from './schemas/shipment.js';
export * from './schemas/container.js';
export * from './schemas/events.js';
export * from './schemas/account.js';
export * from './schemas/places.js';
export * from './schemas/webhooks.js';
export * from './schemas/registry.js';
export * from './schemas/custom-fields.js';
export * from './schemas/documents.js';

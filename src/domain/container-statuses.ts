// The container statuses of the wire (api-wire-notes §3), in the reference's order: the engine derives them
// (docs/tracking.md says what each means); the response schemas, the list filters and the MCP tools take them as
// the closed set. Domain vocabulary: nothing else in src/ keeps its own copy.
export const CONTAINER_STATUSES = [
  'new',
  'on_ship',
  'available',
  'not_available',
  'grounded',
  'on_rail',
  'picked_up',
  'off_dock',
  'delivered',
  'dropped',
  'loaded',
  'empty_returned',
  'awaiting_inland_transfer',
] as const;
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];

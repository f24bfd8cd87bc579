// The sandbox's HTTP faces as pure renderers: world answer in, HTTP answer (status, headers, JSON body) out.
// The routes mount them; README.md documents the four wire shapes.
export { renderAisVessel } from './ais.js';
export { ARRIVAL_NOTICE_API_VERSION, type ArrivalNoticesQuery, renderArrivalNotices } from './arrival-notice.js';
export {
  DCSA_REFERENCE_PARAMETER,
  type DcsaCarriable,
  type DcsaCarriableOptions,
  type DcsaEventsQuery,
  type DcsaRenderOptions,
  dcsaCarriableFacts,
  renderDcsaEvents,
} from './dcsa.js';
export { type RailQuery, renderRailContainer } from './rail.js';
export { renderTerminalContainer, type TerminalQuery } from './terminal.js';
export type { FaceResponse } from './types.js';

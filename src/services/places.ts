// Reference places as the API serves them: ports, metro areas (inland rail hubs), ocean terminals from the
// shipped tables, and rail terminals as the sources named them. Global: every account reads the same data.
// The places and their refs are the render layer's (render/places.ts); this adds the lookups of the place
// routes and what the sandbox's terminals provide.
import { notFound } from '../domain/errors.js';
import { isUuid } from '../lib/ids.js';
import { type MetroAreaPlace, metroAreaPlace, type PortPlace, portPlace, ReferencePlaces, type TerminalPlace } from '../render/places.js';
import { terminalProfile } from '../sandbox/world/index.js';
import { portById, portByLocode, railHubById, railHubByLocode, terminalById, terminalNaturalKey } from '../sources/reference/index.js';

export type { FacilityRef } from '../tracking/places.js';
export type {
  LocationType,
  MetroAreaPlace,
  PortPlace,
  RailTerminalPlace,
  TerminalPlace,
  TerminalProvidedData,
} from '../render/places.js';

/** The port a wire id or UN/LOCODE names, or undefined (global reference data: no service needed). */
export function findPort(key: string): PortPlace | undefined {
  const port = isUuid(key) ? portById(key) : portByLocode(key);
  return port ? portPlace(port) : undefined;
}

export class PlaceService extends ReferencePlaces {
  /** `sandbox`: whether the simulated terminals answer (the only terminal source Tidemark has). */
  constructor(options: { sandbox: boolean } = { sandbox: false }) {
    super(options.sandbox ? (t) => ({ ...terminalProfile(terminalNaturalKey(t)).providedData }) : () => null);
  }

  /** `GET /v2/ports/{id or LOCODE}`. */
  port(key: string): PortPlace {
    const port = findPort(key);
    if (!port) throw notFound('port');
    return port;
  }

  /** `GET /v2/metro_areas/{id or LOCODE}`: a hub's own LOCODE (not a ramp's: that is another place). */
  metroArea(key: string): MetroAreaPlace {
    const hub = isUuid(key) ? railHubById(key) : railHubByLocode(key);
    if (!hub) throw notFound('metro area');
    return metroAreaPlace(hub);
  }

  /** `GET /v2/terminals/{id}`: by wire id only, as the reference API. */
  terminal(id: string): TerminalPlace {
    const t = isUuid(id) ? terminalById(id) : undefined;
    if (!t) throw notFound('terminal');
    return this.terminalPlace(t);
  }
}

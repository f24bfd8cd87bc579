// What the sandbox rail API sends (GET {base}/{railroad SCAC}/containers/{number}). Its event and terminal
// blocks are the sandbox terminal API's (terminals/sandbox/raw.ts): one documented vocabulary for both.
import { z } from 'zod';
import { WireEvent, WireYard } from '../../terminals/sandbox/raw.js';

export const RailContainer = z.looseObject({
  container_number: z.string().min(1),
  /** The railroad that answers (it may report an interchange partner's moves too, each event naming its own). */
  railroad_scac: z.string().regex(/^[A-Z]{2,4}$/, 'expected a SCAC'),
  /** Ramp moves with rail terminal codes and names; `estimated` arrivals are the ETA, `actual` the ATA. */
  events: z.array(WireEvent),
  /** The rail terminal the container is at or bound for (availability, holds, rail last free day); null when not known yet. */
  destination_terminal: WireYard.nullable(),
});

export type RailContainer = z.infer<typeof RailContainer>;

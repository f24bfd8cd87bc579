// What the simulated world says, per face, at one world time: the ground truth that the faces render into
// their wire formats (DCSA TNT 2.2, the terminal API, the rail API, AIS) and that the real adapters must
// parse back to. `world/` computes these; `faces/` renders them; nothing here does I/O.
import type { CanonicalFacts, MilestoneFact, VesselPositionFact, YardFact } from '../sources/contract.js';

/** A simulated carrier's answer about one BL, booking or container number. */
export type CarrierAnswer =
  /** The facts exactly as this carrier reports them (its profile's data gaps already applied). */
  | { status: 'ok'; facts: CanonicalFacts }
  /** The carrier knows the booking but nothing is manifested yet (DCSA: booking-level shipment events only). */
  | { status: 'awaiting_manifest'; bookingNumber: string; receivedAt: string }
  /** The booking was cancelled (DCSA: a CANC shipment event on the booking). */
  | { status: 'cancelled'; bookingNumber: string; cancelledAt: string }
  | { status: 'not_found' }
  /** The carrier rejects the number as malformed (DCSA: 400 naming the query parameter). */
  | { status: 'invalid_number'; message: string }
  /** The carrier's API is failing right now (DCSA: 503, with Retry-After when set). */
  | { status: 'unavailable'; retryAfterSeconds: number | null };

/** A simulated POD terminal's answer about one container. */
export type TerminalAnswer =
  /** `milestones`: what the terminal itself reports (discharge, full out, empty in at this facility). */
  { status: 'ok'; yard: YardFact; milestones: MilestoneFact[] } | { status: 'not_found' };

/** A simulated Class I railroad's answer about one container. */
export type RailAnswer =
  /** `yard`: the container at the rail terminal it is at or bound for (rail LFD, availability), when known. */
  { status: 'ok'; railCarrierScac: string; milestones: MilestoneFact[]; yard: YardFact | null } | { status: 'not_found' };

/** The simulated AIS source's answer about one vessel: its track, oldest first, the last being the latest. */
export type AisAnswer =
  | { status: 'ok'; imo: string; mmsi: string; name: string; positions: VesselPositionFact[] }
  | { status: 'not_found' };

export type { CanonicalFacts };

// Pure mapping of one decoded AIS message to facts: where a vessel is (by MMSI) and who it is (MMSI ↔ IMO, name).
// "Not available" values become null; a report without a usable position gives no position fact.
import { isoSeconds } from '../../../lib/dates.js';
import { isValidImo } from '../../../domain/imo.js';
import { validated } from '../../terminals/sandbox/parse.js';
import { AisMessage, READ_TYPES } from './raw.js';

/** Where a vessel was. AIS gives only the UTC second of the report, so `at` is the receive time. */
export interface AisPositionFact {
  mmsi: string;
  /** ISO 8601, UTC, whole seconds. */
  at: string;
  latitude: number;
  longitude: number;
  /** Speed over ground, knots; null when not available. */
  speedKnots: number | null;
  /** True heading, whole degrees 0–359; null when not available. */
  headingDegrees: number | null;
}

/** Who a transponder belongs to: from type 5 (IMO and name), 24 part A and 19 (name only). */
export interface AisStaticFact {
  mmsi: string;
  /** A 7-digit IMO number with a valid check digit, else null (0, or a number typed in wrong). */
  imo: string | null;
  name: string | null;
}

export interface AisFacts {
  positions: AisPositionFact[];
  statics: AisStaticFact[];
}

/** Speed over ground 102.3 kn means "not available"; 102.2 means "102.2 or more". */
const MAX_SOG_KNOTS = 102.2;

export const NO_FACTS: AisFacts = Object.freeze({ positions: [], statics: [] }) as AisFacts;

/**
 * The facts in one decoded message received at `receivedAt` (domain time). Message types other than position
 * (1, 2, 3, 18, 19) and static reports (5, 24) give none; a read type that does not match its schema is a
 * `bad_response` SourceError.
 */
export function parseAisMessage(decoded: unknown, receivedAt: Date): AisFacts {
  const type = (decoded as { aistype?: unknown } | null)?.aistype;
  if (typeof type !== 'number' || !READ_TYPES.has(type)) return NO_FACTS;
  const m = validated(AisMessage, decoded, `AIS message type ${type}`);
  const positions: AisPositionFact[] = [];
  const statics: AisStaticFact[] = [];
  const name = 'shipname' in m ? shipName(m.shipname) : null;
  switch (m.aistype) {
    case 5: {
      const imo = m.imo !== undefined && isValidImo(m.imo) ? String(m.imo) : null;
      if (imo || name) statics.push({ mmsi: m.mmsi, imo, name });
      break;
    }
    case 24:
      if (m.part === 0 && name) statics.push({ mmsi: m.mmsi, imo: null, name });
      break;
    default: {
      const p = position(m.lat, m.lon);
      if (p) {
        positions.push({
          mmsi: m.mmsi,
          at: isoSeconds(receivedAt),
          latitude: p.latitude,
          longitude: p.longitude,
          speedKnots: m.sog !== undefined && m.sog >= 0 && m.sog <= MAX_SOG_KNOTS ? m.sog : null,
          headingDegrees: m.hdg !== undefined && Number.isInteger(m.hdg) && m.hdg >= 0 && m.hdg < 360 ? m.hdg : null,
        });
      }
      if (name) statics.push({ mmsi: m.mmsi, imo: null, name });
    }
  }
  return { positions, statics };
}

/**
 * Lat 91 / lon 181 mean "not available". 0,0 is what transponders without a position fix often send: no ship is
 * ever reported there for real.
 */
function position(lat: number | undefined, lon: number | undefined): { latitude: number; longitude: number } | null {
  if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  if (lat === 0 && lon === 0) return null;
  return { latitude: lat, longitude: lon };
}

/** AIS text is upper case six-bit ASCII padded with `@` or spaces; the decoder stops at `@`. */
function shipName(raw: string | undefined): string | null {
  const name = raw?.replace(/\s+/g, ' ').trim();
  return name ? name : null;
}

// What the decoder (ggencoder's AisDecode) gives for the AIS messages we read, by message type. Fields a message
// did not carry, or that were out of range (a position "not available"), are absent.
import { z } from 'zod';

/** Nine digits, zero-padded by the decoder (base stations start with 00). */
const Mmsi = z.string().regex(/^\d{9}$/, 'expected a 9-digit MMSI');

/**
 * Position reports: 1, 2, 3 (class A), 18 (class B), 19 (extended class B, with the name). `lat`/`lon` in degrees,
 * absent when the report has none (91/181); `sog` in knots (102.3 = not available); `hdg` true heading in
 * degrees (511 = not available).
 */
export const PositionReport = z.looseObject({
  aistype: z.literal([1, 2, 3, 18, 19]),
  mmsi: Mmsi,
  lat: z.number().optional(),
  lon: z.number().optional(),
  sog: z.number().optional(),
  hdg: z.number().optional(),
  /** Type 19 only. */
  shipname: z.string().optional(),
});

/** Type 5, static and voyage data (class A): the IMO number (0 = none given) and the name. */
export const StaticAndVoyage = z.looseObject({
  aistype: z.literal(5),
  mmsi: Mmsi,
  imo: z.number().int().min(0).optional(),
  shipname: z.string().optional(),
});

/** Type 24, static data (class B): part A (0) carries the name, part B (1) the call sign and size. */
export const StaticDataReport = z.looseObject({
  aistype: z.literal(24),
  mmsi: Mmsi,
  part: z.number().int(),
  shipname: z.string().optional(),
});

export const AisMessage = z.discriminatedUnion('aistype', [PositionReport, StaticAndVoyage, StaticDataReport]);

/** The message types read; the decoder knows more (base stations, aids to navigation, binary messages…). */
export const READ_TYPES: ReadonlySet<number> = new Set([1, 2, 3, 5, 18, 19, 24]);

export type AisMessage = z.infer<typeof AisMessage>;

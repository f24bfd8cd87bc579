// What the sandbox AIS API sends (GET {base}/vessels/{imo}?from=&to=): one vessel and its track.
import { z } from 'zod';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

export const AisPosition = z.looseObject({
  timestamp: z
    .string()
    .refine((v) => INSTANT.test(v) && !Number.isNaN(Date.parse(v)), 'expected an ISO 8601 date-time with Z or an offset'),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  /** Speed over ground, knots; null when the transponder gives none. */
  sog: z.number().min(0).finite().nullable(),
  /** True heading, degrees; null when not available (AIS 511). */
  heading: z.number().min(0).lt(360).nullable(),
  /** The reported destination (AIS voyage data, free text, often a UN/LOCODE); absent or null when none. */
  destination: z.string().nullish(),
});

export const AisVessel = z.looseObject({
  imo: z.string().regex(/^\d{7}$/, 'expected a 7-digit IMO number'),
  mmsi: z
    .string()
    .regex(/^\d{9}$/, 'expected a 9-digit MMSI')
    .nullable(),
  name: z.string().min(1).nullable(),
  /** Oldest first. */
  positions: z.array(AisPosition),
});

export type AisVessel = z.infer<typeof AisVessel>;
export type AisPosition = z.infer<typeof AisPosition>;

// A simulated AIS feed: GET {base}/vessels/{imo}?from=&to= (the answer is already cut to the window).
import type { z } from 'zod';
import type { AisVessel } from '../../sources/ais/sandbox/raw.js';
import type { AisAnswer } from '../answers.js';
import { type FaceResponse, json } from './types.js';
import { notFound } from './yard.js';

export function renderAisVessel(answer: AisAnswer, query: { imo: string }): FaceResponse {
  if (answer.status === 'not_found') return json(404, notFound(`No AIS track for IMO ${query.imo}`));
  const body: z.input<typeof AisVessel> = {
    imo: answer.imo,
    mmsi: answer.mmsi,
    name: answer.name,
    positions: answer.positions.map((p) => ({
      timestamp: p.at,
      lat: p.latitude,
      lon: p.longitude,
      sog: p.speedKnots,
      heading: p.headingDegrees,
      destination: p.destination,
    })),
  };
  return json(200, body);
}

// A simulated Class I railroad's container trace API: GET {base}/{railroad SCAC}/containers/{number}.
import type { z } from 'zod';
import type { RailContainer } from '../../sources/rail/sandbox/raw.js';
import type { RailAnswer } from '../answers.js';
import { type FaceResponse, json } from './types.js';
import { notFound, wireEvent, wireYard } from './yard.js';

export interface RailQuery {
  railScac: string;
  containerNumber: string;
}

export function renderRailContainer(answer: RailAnswer, query: RailQuery): FaceResponse {
  if (answer.status === 'not_found') {
    return json(404, notFound(`Container ${query.containerNumber} is not known to ${query.railScac}`));
  }
  const body: z.input<typeof RailContainer> = {
    container_number: answer.yard?.containerNumber ?? query.containerNumber.toUpperCase(),
    railroad_scac: answer.railCarrierScac,
    events: answer.milestones.map(wireEvent),
    destination_terminal: answer.yard ? wireYard(answer.yard) : null,
  };
  return json(200, body);
}

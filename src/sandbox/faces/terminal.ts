// A simulated terminal operator's container-availability API: GET {base}/{facility}/containers/{number}.
import type { z } from 'zod';
import type { TerminalContainer } from '../../sources/terminals/sandbox/raw.js';
import type { TerminalAnswer } from '../answers.js';
import { type FaceResponse, json } from './types.js';
import { notFound, wireEvent, wireYard } from './yard.js';

export interface TerminalQuery {
  facilityCode: string;
  containerNumber: string;
}

export function renderTerminalContainer(answer: TerminalAnswer, query: TerminalQuery): FaceResponse {
  if (answer.status === 'not_found') {
    return json(404, notFound(`Container ${query.containerNumber} is not known at ${query.facilityCode}`));
  }
  const body: z.input<typeof TerminalContainer> = {
    container_number: answer.yard.containerNumber,
    ...wireYard(answer.yard),
    events: answer.milestones.map(wireEvent),
  };
  return json(200, body);
}

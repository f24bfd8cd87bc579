// The benchmarks `npm run bench` runs, in order, each with the options the full or smoke run gives it.
import * as containerGet from '../container-get.js';
import * as fanout from '../fanout.js';
import * as ingest from '../ingest.js';
import * as memory from '../memory.js';
import * as pglite from '../pglite.js';
import * as shipmentsList from '../shipments-list.js';
import type { GoalResult } from './report.js';

export interface BenchOptions {
  smoke: boolean;
  /** Minutes of the memory run (its default when absent). */
  minutes?: number;
}

export const BENCHES: Record<string, (o: BenchOptions) => Promise<GoalResult[]>> = {
  'container-get': ({ smoke }) => containerGet.run({ smoke }),
  'shipments-list': ({ smoke }) => shipmentsList.run({ smoke }),
  pglite: ({ smoke }) => pglite.run({ smoke }),
  // Both run with one worker process and then two on the same server (the scale-out ratio).
  ingest: ({ smoke }) => ingest.run({ smoke, workers: 2 }),
  fanout: ({ smoke }) => fanout.run({ smoke, workers: 2 }),
  memory: ({ smoke, minutes }) => memory.run({ smoke, ...(minutes ? { minutes } : {}) }),
};

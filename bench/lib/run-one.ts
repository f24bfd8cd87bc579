// One benchmark of `npm run bench` in a process of its own (bench/run.ts forks this): the in-process parts of a
// benchmark (load generator, receiver, baseline server) start with a fresh heap, as when the benchmark is run
// alone, and not with what the benchmarks before it left. The results go back to the parent over IPC.
import { BENCHES, type BenchOptions } from './benches.js';

const [name, options] = process.argv.slice(2);
const bench = BENCHES[name!];
if (!bench || !process.send) throw new Error(`usage: forked by bench/run.ts with a benchmark name (${Object.keys(BENCHES).join(', ')})`);
const results = await bench(JSON.parse(options!) as BenchOptions);
process.send({ results }, () => process.exit(0));

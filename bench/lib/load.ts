// The load generator: autocannon (npm), in this process, against a server in another process on loopback.
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** Open connections (default 32). */
  connections?: number;
  /** Seconds (default 10). */
  duration?: number;
  /** A fixed total rate in requests/s (for "p99 at half load"); unset = as fast as the server answers. */
  rate?: number;
  /** Requests in flight per connection (default 1). */
  pipelining?: number;
  /** Several paths, taken in turn (each its own autocannon request); `url` gives the origin. */
  paths?: string[];
}

export interface LoadResult {
  /** Completed 2xx responses per second over the run. */
  rps: number;
  requests: number;
  non2xx: number;
  errors: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  bytesPerResponse: number;
}

export async function load(opts: LoadOptions): Promise<LoadResult> {
  const duration = opts.duration ?? 10;
  const result = await autocannon({
    url: opts.url,
    headers: opts.headers ?? {},
    connections: opts.connections ?? 32,
    duration,
    pipelining: opts.pipelining ?? 1,
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    ...(opts.paths ? { requests: opts.paths.map((path) => ({ method: 'GET' as const, path })) } : {}),
  });
  const ok = result['2xx'];
  return {
    rps: ok / duration,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    bytesPerResponse: result.requests.total ? result.throughput.total / result.requests.total : 0,
  };
}

/** A short run first, so JIT, pools and caches are warm before anything is measured. */
export async function warm(opts: LoadOptions, seconds = 3): Promise<void> {
  await load({ ...opts, duration: seconds, rate: undefined });
}

// Prometheus metrics: HTTP, jobs and the database pool, in a registry per app (no global state).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../storage/db.js';
import type { QueueMetrics } from '../workers/queue.js';

export class Metrics implements QueueMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  readonly jobs: Counter<'queue' | 'outcome'>;
  readonly jobDuration: Histogram<'queue'>;

  constructor(
    db: Db,
    options: {
      defaultMetrics?: boolean;
      /** Hits, misses and size of the process's document cache (services/document-cache.ts). */
      documents?: () => { hits: number; misses: number; entries: number; bytes: number };
      /** Each data source's consecutive failures (the tracking engine records them). */
      sourceHealth?: () => Promise<{ source_id: string; consecutive_failures: number }[]>;
    } = {},
  ) {
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'tidemark_' });
    this.httpRequests = new Counter({
      name: 'tidemark_http_requests_total',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.httpDuration = new Histogram({
      name: 'tidemark_http_request_duration_seconds',
      help: 'HTTP request duration',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.jobs = new Counter({
      name: 'tidemark_jobs_total',
      help: 'Jobs finished by queue and outcome',
      labelNames: ['queue', 'outcome'],
      registers: [this.registry],
    });
    this.jobDuration = new Histogram({
      name: 'tidemark_job_duration_seconds',
      help: 'Job handler duration',
      labelNames: ['queue'],
      registers: [this.registry],
    });
    const reading = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read());
        },
      });
    reading('tidemark_db_pool_connections', 'Database connections open', () => db.poolStats().total);
    reading('tidemark_db_pool_idle', 'Database connections idle', () => db.poolStats().idle);
    reading('tidemark_db_pool_waiting', 'Queries waiting for a connection', () => db.poolStats().waiting);
    const documents = options.documents;
    if (documents) {
      reading('tidemark_document_cache_hits', 'Container and shipment GETs answered from kept documents', () => documents().hits);
      reading('tidemark_document_cache_misses', 'Container and shipment GETs that read the database', () => documents().misses);
      reading('tidemark_document_cache_entries', 'Documents kept', () => documents().entries);
      reading('tidemark_document_cache_bytes', 'Bytes of documents kept (approximate)', () => documents().bytes);
    }
    const sourceHealth = options.sourceHealth;
    if (sourceHealth) {
      new Gauge({
        name: 'tidemark_source_consecutive_failures',
        help: 'Failures in a row of each data source (0 once it answers again)',
        labelNames: ['source'],
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const row of await sourceHealth()) this.set({ source: row.source_id }, row.consecutive_failures);
        },
      });
    }
  }

  jobFinished(queue: string, outcome: 'completed' | 'failed', seconds: number): void {
    this.jobs.inc({ queue, outcome });
    this.jobDuration.observe({ queue }, seconds);
  }
}

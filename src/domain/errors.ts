// The one error type of Tidemark. Codes are a closed list; http/errors.ts is the one place that maps
// them to statuses. `retryable` is read only by the worker.

export const ERROR_CODES = [
  'bad_request', // malformed input that is not about a field (broken JSON, bad query parameter)
  'unauthorized',
  'forbidden',
  'feature_not_enabled',
  'not_found',
  'method_not_allowed',
  'conflict',
  'unsupported_media_type',
  'validation_failed',
  'rate_limited',
  'locked', // a resource (the PGlite data directory) is held by another process
  'unavailable', // a dependency (database, source) cannot answer now
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorItem {
  title?: string;
  detail?: string | null;
  /** JSON pointer into the request body, e.g. `/data/attributes/company_name`. */
  pointer?: string;
  /** Query parameter name, e.g. `include` or `page[size]`. */
  parameter?: string;
  /** Machine-readable reason beside the title, e.g. `blank`, `taken`. */
  code?: string;
  meta?: Record<string, unknown>;
}

export class TidemarkError extends Error {
  readonly items: ErrorItem[];
  readonly retryable: boolean;
  /** Seconds a client should wait (rate limits, unavailable sources). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { items?: ErrorItem[]; retryable?: boolean; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'TidemarkError';
    this.items = options.items ?? [];
    this.retryable = options.retryable ?? (code === 'unavailable' || code === 'rate_limited');
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (what = 'resource') => new TidemarkError('not_found', `${what} not found`);

export const validationFailed = (items: ErrorItem[]) =>
  new TidemarkError('validation_failed', items.map((i) => i.detail).join('; '), { items });

export const badRequest = (detail: string, where: { parameter?: string; pointer?: string } = {}) =>
  new TidemarkError('bad_request', detail, { items: [{ detail, ...where }] });

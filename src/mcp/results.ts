// Tool results: a short text for the model plus the same data as structuredContent, and tool errors that say
// what to do next. Service errors a model can recover from (not found, invalid input) become tool errors.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { TidemarkError } from '../domain/errors.js';
import { describeUnstorable, findUnstorable } from '../lib/storable-text.js';
import type { ToolContext } from './context.js';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** A successful result: `summary` first, then the data as JSON text for clients that ignore structuredContent. */
export function ok(summary: string, data: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: `${summary}\n\n${JSON.stringify(data, null, 2)}` }],
    structuredContent: data,
  };
}

/** A failure the model can act on: what went wrong and the next step. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Tool arguments with text PostgreSQL cannot store (NUL, unpaired surrogates) as the tool error that names them, or
 * null when every argument can be stored. Checked before any tool body runs (server.ts), as the HTTP edge checks
 * request bodies.
 */
export function refusedArguments(args: unknown): CallToolResult | null {
  const found = findUnstorable(args);
  if (!found.length) return null;
  const name = (path: (string | number)[]) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
  return toolError(`${found.map((f) => describeUnstorable(name(f.path), f)).join('; ')}.`);
}

/**
 * Whatever a tool body threw, as a tool result: a client-facing TidemarkError says what it says; anything else (a
 * database error, a bug) is logged with the request id and answered without its text, which is not for clients.
 */
export function failureOf(err: unknown, tool: string, ctx: Pick<ToolContext, 'request'>): CallToolResult {
  if (err instanceof TidemarkError && err.code === 'unavailable') {
    const wait = err.retryAfterSeconds ? `${err.retryAfterSeconds} s` : 'a minute';
    return toolError(`Tidemark cannot answer right now — wait ${wait} and call ${tool} again.`);
  }
  if (err instanceof TidemarkError && err.code !== 'internal') {
    const details = err.items.map((i) => i.detail ?? i.title).filter((d): d is string => Boolean(d) && d !== err.message);
    return toolError([err.message, ...details].join('; '));
  }
  ctx.request?.log.error({ err, tool }, 'MCP tool failed');
  const id = ctx.request ? ` (request id ${ctx.request.id})` : '';
  return toolError(`${tool} failed inside Tidemark${id}; the error is logged for the operator. Try again later.`);
}

/**
 * Runs a tool body, turning the services' recoverable errors into tool errors: not found answers
 * `notFoundMessage` (which names the next step, e.g. "call track_container first"), validation and
 * bad-request errors carry their details.
 */
export async function guarded(notFoundMessage: string, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (err) {
    if (!(err instanceof TidemarkError)) throw err;
    if (err.code === 'not_found') return toolError(notFoundMessage);
    if (err.code === 'validation_failed' || err.code === 'bad_request') {
      const details = (err.items ?? []).map((i) => i.detail ?? i.title).filter(Boolean);
      return toolError(`${[err.message, ...details.filter((d) => d !== err.message)].join('; ')} — check the input and try again.`);
    }
    if (err.code === 'rate_limited') return toolError(`${err.message} — wait a minute before calling again.`);
    if (err.code === 'feature_not_enabled' || err.code === 'forbidden') return toolError(err.message);
    // Anything else is answered by failureOf, around every tool (server.ts).
    throw err;
  }
}

/** `page` and `page_size` inputs: page from 1, page size 25 by default, clamped to 100. */
export const pagingInput = {
  page: z.number().int().positive().optional().describe('Page number, from 1 (default 1)'),
  page_size: z.number().int().positive().optional().describe(`Items per page (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})`),
};

export function pageOf(input: { page?: number | undefined; page_size?: number | undefined }) {
  const number = input.page ?? 1;
  const size = Math.min(input.page_size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { number, size, limit: size, offset: (number - 1) * size };
}

/** The paging part of every list result. */
export function pagingOf(page: { number: number; size: number }, total: number) {
  const pages = Math.max(1, Math.ceil(total / page.size));
  return { page: page.number, page_size: page.size, total, total_pages: pages, has_more: page.number < pages };
}

export const pagingOutput = z.object({
  page: z.number(),
  page_size: z.number(),
  total: z.number(),
  total_pages: z.number(),
  has_more: z.boolean(),
});

/** A JSON:API resource object as the REST API renders it. */
export const resourceOutput = z.object({
  id: z.string(),
  type: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  relationships: z.record(z.string(), z.unknown()).optional(),
  links: z.record(z.string(), z.string()).optional(),
});

/** Read-only tools: no side effects, only Tidemark's own data. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** Comma-separated or repeated list input, upper-cased (UN/LOCODEs, SCACs). */
export function upperList(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = [value]
    .flat()
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toUpperCase())
    .filter(Boolean);
  return list.length ? list : undefined;
}

export function lowerList(value: string | string[] | undefined): string[] | undefined {
  return upperList(value)?.map((v) => v.toLowerCase());
}

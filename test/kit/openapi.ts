// Checks responses against the app's own /v2/openapi.json: the document the reference's clients and code
// generators are pointed at must describe what the routes really answer. The route suite and the sandbox-scenario
// shape test pass every response they see through `checkResponse`.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { App } from '../../src/http/context.js';

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  /** OpenAPI form: `/v2/containers/{id}`. */
  path: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

export type CheckResult =
  | { kind: 'valid' }
  /** The request matched no documented path (hidden routes: the web app, /docs, /v2/openapi.json; unknown URLs). */
  | { kind: 'unrouted' }
  | { kind: 'undocumented'; operation: string; status: number; why: string }
  | { kind: 'invalid'; operation: string; status: number; errors: string[] };

export interface OpenApiChecker {
  document: Json;
  /** The documented operation a request reaches, as `GET /v2/containers/{id}`, or null. */
  operationOf(method: string, url: string): Operation | null;
  check(method: string, url: string, status: number, contentType: string, body: string): CheckResult;
}

const DOC_ID = 'tidemark-openapi';

/** `/v2/containers/{id}` → a matcher of request paths, and how static it is (the router prefers static segments). */
function pathMatcher(path: string): { re: RegExp; rank: number[] } {
  const segments = path.split('/').slice(1);
  const re = new RegExp(
    `^/${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}/?$`,
  );
  return { re, rank: segments.map((s) => (s.startsWith('{') ? 0 : 1)) };
}

function higher(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
}

/** The media type a response's Content-Type matches: the same one, else any JSON one (clients parse any JSON). */
function mediaFor(content: Record<string, { schema?: unknown }>, contentType: string): { schema?: unknown } | undefined {
  const base = contentType.split(';')[0]!.trim().toLowerCase();
  if (content[base]) return content[base];
  if (/json/.test(base)) return Object.entries(content).find(([type]) => /json/.test(type))?.[1];
  return undefined;
}

/** Builds a checker from an OpenAPI 3.1 document (JSON Schema 2020-12 schemas, components referenced by `$ref`). */
export function openApiChecker(document: Json): OpenApiChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  const retarget = (schema: unknown) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${DOC_ID}#/$defs/`)) as Json;
  const components = ((document.components as Json | undefined)?.schemas ?? {}) as Json;
  ajv.addSchema({ $id: DOC_ID, $defs: retarget(components) });

  const operations: (Operation & { re: RegExp; rank: number[] })[] = [];
  for (const [path, ops] of Object.entries((document.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!/^(get|post|put|patch|delete)$/.test(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        responses: (op.responses ?? {}) as Operation['responses'],
        ...pathMatcher(path),
      });
    }
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (key: string, schema: unknown) => {
    let v = compiled.get(key);
    if (!v) {
      v = ajv.compile(retarget(schema));
      compiled.set(key, v);
    }
    return v;
  };

  const operationOf = (method: string, url: string) => {
    const path = url.split('?')[0]!;
    let best: (typeof operations)[number] | null = null;
    for (const op of operations)
      if (op.method === method.toUpperCase() && op.re.test(path) && (!best || higher(op.rank, best.rank))) best = op;
    return best;
  };

  return {
    document,
    operationOf,
    check(method, url, status, contentType, body) {
      const op = operationOf(method, url);
      if (!op) return { kind: 'unrouted' };
      const operation = `${op.method} ${op.path}`;
      const response = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
      if (!response) return { kind: 'undocumented', operation, status, why: `status ${status} is not documented` };
      if (!response.content) {
        if (body === '') return { kind: 'valid' };
        return { kind: 'undocumented', operation, status, why: `status ${status} has no body schema` };
      }
      const media = mediaFor(response.content, contentType);
      if (!media?.schema) {
        return { kind: 'undocumented', operation, status, why: `no schema for content type ${contentType || '(none)'}` };
      }
      let parsed: unknown;
      try {
        parsed = body === '' ? null : JSON.parse(body);
      } catch {
        return { kind: 'invalid', operation, status, errors: [`the body is not JSON: ${body.slice(0, 100)}`] };
      }
      const validate = validator(`${operation} ${status} ${contentType}`, media.schema);
      if (validate(parsed)) return { kind: 'valid' };
      const errors = (validate.errors ?? []).slice(0, 20).map((e) => {
        const value = JSON.stringify(e.instancePath ? pointerGet(parsed, e.instancePath) : undefined)?.slice(0, 120);
        return `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}${value === undefined ? '' : ` (got ${value})`}`;
      });
      return { kind: 'invalid', operation, status, errors };
    },
  };
}

function pointerGet(value: unknown, pointer: string): unknown {
  let v = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    v = v !== null && typeof v === 'object' ? (v as Json)[key] : undefined;
  }
  return v;
}

// ---------- per app, for the suites ----------

const checkers = new WeakMap<App, Promise<OpenApiChecker>>();

/** The checker of this app's own /v2/openapi.json (fetched once per app). */
export function checkerOf(app: App): Promise<OpenApiChecker> {
  let c = checkers.get(app);
  if (!c) {
    c = app.inject({ url: '/v2/openapi.json' }).then((res) => {
      if (res.statusCode !== 200) throw new Error(`GET /v2/openapi.json answered ${res.statusCode}`);
      return openApiChecker(res.json());
    });
    checkers.set(app, c);
  }
  return c;
}

/** How many responses were checked against a documented schema, and found valid. */
export const checkedResponses = { valid: 0 };

/**
 * Checks one response against the app's OpenAPI document: fails when the route does not document the status, or
 * documents it and the body does not match its schema.
 */
export async function checkResponse(
  app: App,
  res: { method: string; url: string; status: number; contentType: string; body: string },
): Promise<CheckResult> {
  const checker = await checkerOf(app);
  const result = checker.check(res.method, res.url, res.status, res.contentType, res.body);
  const where = `${res.method} ${res.url} → ${res.status}`;
  if (result.kind === 'valid') checkedResponses.valid++;
  if (result.kind === 'invalid') {
    expect(result.errors, `${where}: the body does not match ${result.operation}'s documented ${res.status} response`).toEqual([]);
  }
  if (result.kind === 'undocumented') expect.fail(`${where}: ${result.operation}: ${result.why}`);
  return result;
}

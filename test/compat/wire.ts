// Requests as the reference's clients send them, and their answers checked against the hand-written schemas.
// The SDK and CLI send `Authorization: Token <key>` and `Accept: application/json`, a JSON body as
// `Content-Type: application/json` (api-wire-notes.md §1.1–1.2); bracket parameters arrive as written in each
// request's URL (raw from the SDK's typed calls, percent-encoded from its hand-built ones).
import { expect } from 'vitest';
import type { z } from 'zod';
import type { TestApp } from '../kit/app.js';
import { OPERATIONS, type Operation } from './operations.js';

export interface Answer {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body, read by the checks
  json: any;
  headers: Record<string, string | string[] | undefined>;
}

export interface CallOptions {
  body?: unknown;
  /** Headers beyond the client's (these win). */
  headers?: Record<string, string>;
  /** The key's authorization header; `null` sends none. */
  auth?: { authorization: string } | null;
}

/** A client of one account: every request as the SDK sends it. */
export function client(t: TestApp, auth: { authorization: string }) {
  return async function call(method: string, url: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(options.auth === null ? {} : (options.auth ?? auth)),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    };
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(options.body === undefined ? {} : { payload: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
    });
    let json: unknown;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, text: res.body, json, headers: res.headers as Answer['headers'] };
  };
}

/** The schema's problems with a value, one line each (path: message), at most 15. */
export function problems(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.slice(0, 15).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

/** The answer has this status and a body the schema takes; it names the request and shows the body when not. */
export function expectAnswer(res: Answer, status: number, schema: z.ZodType | null, where: string): void {
  expect(res.status, `${where} → ${res.status}: ${res.text.slice(0, 600)}`).toBe(status);
  if (schema === null) return;
  expect(res.json, `${where}: the body is not JSON: ${res.text.slice(0, 200)}`).toBeDefined();
  expect(problems(schema, res.json), `${where}: the answer breaks the reference's schema`).toEqual([]);
}

/** Marks operations as exercised (by operationId), for the file's last test: every operation of its scope got a request. */
export function coverage(scope: (o: Operation) => boolean) {
  const done = new Set<string>();
  return {
    op(operationId: string): Operation {
      const o = OPERATIONS.find((x) => x.operationId === operationId);
      if (!o) throw new Error(`no operation ${operationId} in test/compat/operations.ts`);
      done.add(operationId);
      return o;
    },
    missing(): string[] {
      return OPERATIONS.filter((o) => o.status === 'served' && scope(o) && !done.has(o.operationId)).map(
        (o) => `${o.operationId} (${o.method} ${o.path})`,
      );
    },
  };
}

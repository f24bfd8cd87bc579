// The checks every /v2 route gets, registered by one call per route (routeSuite): authentication, tenant
// isolation (or, for reference data, the same answer for everyone), unknown and malformed ids, paging, and
// the JSON:API document rules of api-wire-notes §1.5–1.8 (validateDocument) on every 2xx JSON:API body.
import { describe, expect, it, type TestContext } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { Db } from '../../src/storage/db.js';
import type { TestApp } from './app.js';
import { checkResponse } from './openapi.js';

// ---------- the database side: an account's rows and ids ----------

/**
 * Per-account tables, found by their `account_id` column so that tables added later are covered without a
 * list to keep. `api_keys` is left out of the dumps (not of the ids): every request touches its key's last-used
 * time, and the unknown-id checks compare the owner's rows around requests made with the owner's own key.
 */
const NOT_DUMPED = new Set(['api_keys']);

async function accountTables(db: Db, forDump: boolean): Promise<{ table: string; hasId: boolean }[]> {
  const rows = await db.query<{ table_name: string; has_id: boolean }>(
    `SELECT c.table_name, bool_or(i.column_name IS NOT NULL) AS has_id
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
       LEFT JOIN information_schema.columns i
         ON i.table_schema = c.table_schema AND i.table_name = c.table_name AND i.column_name = 'id' AND i.data_type = 'uuid'
      WHERE c.table_schema = 'public' AND c.column_name = 'account_id' AND c.data_type = 'uuid'
      GROUP BY c.table_name ORDER BY c.table_name`,
  );
  return rows.filter((r) => !forDump || !NOT_DUMPED.has(r.table_name)).map((r) => ({ table: r.table_name, hasId: r.has_id }));
}

/** Every row of the account (and the account itself) as text, table by table, in a stable order. */
export async function dumpAccount(db: Db, accountId: string): Promise<string[]> {
  const out: string[] = [];
  const [account] = await db.query<{ r: string }>('SELECT row_to_json(a)::text AS r FROM accounts a WHERE id = $1', [accountId]);
  out.push(`accounts ${account?.r}`);
  for (const { table } of await accountTables(db, true)) {
    const rows = await db.query<{ r: string }>(`SELECT row_to_json(x)::text AS r FROM "${table}" x WHERE account_id = $1 ORDER BY 1`, [
      accountId,
    ]);
    for (const { r } of rows) out.push(`${table} ${r}`);
  }
  return out;
}

/** The ids of every per-account record of the account, each with its table. */
export async function accountIds(db: Db, accountId: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const { table, hasId } of await accountTables(db, false)) {
    if (!hasId) continue;
    const rows = await db.query<{ id: string }>(`SELECT id::text AS id FROM "${table}" WHERE account_id = $1`, [accountId]);
    for (const { id } of rows) ids.set(id, table);
  }
  return ids;
}

/** The rows that differ between two dumps (`- ` gone or changed from, `+ ` new or changed to); [] when none. */
export function changed(before: string[][] | string[] | null, after: string[][] | string[] | null): string[] {
  const a = new Set((before ?? []).flat());
  const b = new Set((after ?? []).flat());
  return [...[...a].filter((r) => !b.has(r)).map((r) => `- ${r}`), ...[...b].filter((r) => !a.has(r)).map((r) => `+ ${r}`)];
}

/** The ids out of `ids` that occur anywhere in `text`. */
export function idsIn(text: string, ids: Iterable<string>): string[] {
  const lower = text.toLowerCase();
  return [...ids].filter((id) => lower.includes(id.toLowerCase()));
}

// ---------- the document side ----------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
/** Singular type names that happen to end in `s` (none yet); any other `…s` is taken for a plural. */
const SINGULAR_ENDING_IN_S = new Set<string>([]);
/** A timestamp in UTC: the date, a `T`, a time of day and `Z`. */
const ZULU = /^\d{4}-\d\d-\d\dT[0-9:.,]+Z$/;
const SECONDS_ZULU = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const keyOf = (r: Json) => `${String(r.type)}:${String(r.id)}`;

function refsOf(data: unknown): Json[] {
  if (Array.isArray(data)) return data.filter(isObject);
  return isObject(data) ? [data] : [];
}

function checkRef(ref: unknown, at: string, problems: string[]): void {
  if (!isObject(ref)) return void problems.push(`${at}: a resource identifier must be an object {id, type}, got ${JSON.stringify(ref)}`);
  if (typeof ref.id !== 'string' || !UUID.test(ref.id)) problems.push(`${at}.id: not a UUID string: ${JSON.stringify(ref.id)}`);
  if (typeof ref.type !== 'string' || !SNAKE.test(ref.type)) problems.push(`${at}.type: not snake_case: ${JSON.stringify(ref.type)}`);
}

function checkResource(r: unknown, at: string, problems: string[]): void {
  if (!isObject(r)) return void problems.push(`${at}: a resource object must be an object`);
  if (typeof r.id !== 'string' || !UUID.test(r.id)) problems.push(`${at}.id: not a UUID string: ${JSON.stringify(r.id)}`);
  if (typeof r.type !== 'string' || !SNAKE.test(r.type)) problems.push(`${at}.type: not snake_case: ${JSON.stringify(r.type)}`);
  else if (r.type.endsWith('s') && !SINGULAR_ENDING_IN_S.has(r.type)) problems.push(`${at}.type: looks plural: ${r.type}`);
  if (!isObject(r.attributes)) problems.push(`${at}.attributes: not an object`);
  // api-wire-notes §1.5: relationships are always present, every declared name, even when empty.
  if (!isObject(r.relationships)) return void problems.push(`${at}.relationships: not an object`);
  for (const [name, rel] of Object.entries(r.relationships)) {
    const where = `${at}.relationships.${name}`;
    if (!isObject(rel) || !Object.hasOwn(rel, 'data')) {
      problems.push(`${where}: has no data key`);
      continue;
    }
    if (rel.data === null) continue;
    if (!Array.isArray(rel.data)) checkRef(rel.data, `${where}.data`, problems);
    else for (const [i, ref] of rel.data.entries()) checkRef(ref, `${where}.data[${i}]`, problems);
  }
}

/** `links` objects anywhere hold strings only (never null); timestamps in UTC carry whole seconds. */
function walk(value: unknown, at: string, problems: string[]): void {
  if (typeof value === 'string') {
    if (ZULU.test(value) && !SECONDS_ZULU.test(value)) problems.push(`${at}: timestamp without second precision: ${value}`);
    return;
  }
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) walk(v, `${at}[${i}]`, problems);
    return;
  }
  if (!isObject(value)) return;
  for (const [k, v] of Object.entries(value)) {
    if (k === 'links') {
      if (!isObject(v)) problems.push(`${at}.links: not an object: ${JSON.stringify(v)}`);
      else
        for (const [name, link] of Object.entries(v))
          if (typeof link !== 'string') problems.push(`${at}.links.${name}: ${JSON.stringify(link)} is not a string`);
    }
    walk(v, `${at}.${k}`, problems);
  }
}

/** The comma list of `include` in a URL or query string (raw or `%2C`), or []. */
export function includeOf(url: string): string[] {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : url;
  const raw = new URLSearchParams(query).get('include');
  return raw
    ? raw
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    : [];
}

/**
 * Every rule a JSON:API document of this API keeps (api-wire-notes §1.3–1.5, §1.8), as a list of problems
 * (empty when the document is good): resource ids are UUID strings, types singular snake_case, attributes
 * objects, every relationship has `data` (null, an identifier or a list of them); every target of every
 * relationship path named in `include` is in `included` (or is primary data); `included` has no
 * duplicates and never repeats primary data; no `links` value anywhere is null or not a string; every
 * UTC timestamp has second precision.
 */
export function validateDocument(doc: unknown, include: string[] = []): string[] {
  const problems: string[] = [];
  if (!isObject(doc)) return [`the document is not a JSON object: ${JSON.stringify(doc)?.slice(0, 200)}`];
  if (!Object.hasOwn(doc, 'data')) problems.push('the document has no data');
  const many = Array.isArray(doc.data);
  const primary: unknown[] = many ? (doc.data as unknown[]) : doc.data === null || doc.data === undefined ? [] : [doc.data];
  for (const [i, r] of primary.entries()) checkResource(r, many ? `data[${i}]` : 'data', problems);
  let included: unknown[] = [];
  if (doc.included !== undefined) {
    if (Array.isArray(doc.included)) included = doc.included;
    else problems.push('included: not an array');
  }
  for (const [i, r] of included.entries()) checkResource(r, `included[${i}]`, problems);

  const primaryObjects = primary.filter(isObject);
  const includedObjects = included.filter(isObject);
  const primaryKeys = new Set(primaryObjects.map(keyOf));
  const seen = new Set<string>();
  includedObjects.forEach((r, i) => {
    const k = keyOf(r);
    if (primaryKeys.has(k)) problems.push(`included[${i}]: ${k} repeats primary data`);
    if (seen.has(k)) problems.push(`included[${i}]: ${k} is included twice`);
    seen.add(k);
  });

  const index = new Map([...primaryObjects, ...includedObjects].map((r) => [keyOf(r), r]));
  for (const path of include) {
    let level = primaryObjects;
    path.split('.').forEach((name, depth) => {
      const next = new Map<string, Json>();
      for (const r of level) {
        const rel = isObject(r.relationships) ? r.relationships[name] : undefined;
        if (!isObject(rel)) {
          // A polymorphic level (a terminal or a rail terminal) may lack a deeper relationship; the first may not.
          if (depth === 0) problems.push(`include=${path}: ${keyOf(r)} has no relationship ${name}`);
          continue;
        }
        for (const ref of refsOf(rel.data)) {
          const target = index.get(keyOf(ref));
          if (target) next.set(keyOf(target), target);
          else problems.push(`include=${path}: ${keyOf(r)} → ${name} → ${keyOf(ref)} is not in included`);
        }
      }
      level = [...next.values()];
    });
  }
  walk(doc, '$', problems);
  return problems;
}

/** Fails with every problem of the document at once, naming where it came from. */
export function expectValidDocument(doc: unknown, include: string[], where: string): void {
  expect(validateDocument(doc, include), `JSON:API rules broken by ${where}`).toEqual([]);
}

// ---------- HTTP ----------

export interface Answer {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body, read by the checks
  json: any;
  contentType: string;
}

/**
 * One request as the SDK sends it (Accept and Content-Type JSON), the body parsed when it is JSON, and the answer
 * checked against the route's documented response (test/kit/openapi.ts).
 */
export async function send(t: TestApp, method: string, url: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  let json: unknown;
  try {
    json = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    json = undefined;
  }
  const answer = { status: res.statusCode, text: res.body, json, contentType: String(res.headers['content-type'] ?? '') };
  // Every response the suites see is checked against the app's own OpenAPI document (test/kit/openapi.ts).
  await checkResponse(t.app, { method, url, status: answer.status, contentType: answer.contentType, body: answer.text });
  return answer;
}

/** A JSON:API error document with this status (`errors[0].status` the same, as a string). */
export function expectError(res: Answer, status: number, where: string): void {
  expect(res.status, `${where}: ${res.text.slice(0, 500)}`).toBe(status);
  expect(res.contentType, `${where}: content type`).toMatch(/json/);
  expect(res.json, `${where}: body`).toMatchObject({ errors: [expect.objectContaining({ status: String(status) })] });
}

export function expectNotFound(res: Answer, where: string): void {
  expectError(res, 404, where);
  expect(res.json.errors[0], `${where}: 404 body`).toMatchObject({ status: '404', title: 'Not Found' });
}

/** `GET /v2/x/:id` → `GET /v2/x/:` — routes compared without their parameter names. */
export const routeKey = (method: string, url: string) => `${method} ${url.replace(/:[^/]+/g, ':')}`;

// ---------- the suite ----------

export interface SuiteAccount {
  account: { id: string };
  token: string;
  auth: { authorization: string };
}

/** What every suite needs from its fixture: the app, the account that owns the records, another account. */
export interface SuiteContext {
  t: TestApp;
  owner: SuiteAccount;
  other: SuiteAccount;
}

export type Check = 'auth' | 'tenant' | 'unknown-id' | 'paging';

export interface RouteSpec<F extends SuiteContext> {
  /** As `app.routeTable` lists it (parameter names may differ). */
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  route: string;
  name?: string;
  /** `account`: per-account records (another account's key must not reach them); `global`: reference data. */
  owner: 'account' | 'global';
  /**
   * The owner's record the route names: in the path (every `:param`), or with `idIn: 'body'` only in the
   * body. Called for every request, so a route that consumes its record (DELETE) can be given a fresh one.
   */
  id?: (fx: F) => string | Promise<string>;
  idIn?: 'path' | 'body';
  /**
   * The path for a route with more than one parameter, from the record `id` names (the other parameters fixed by the
   * fixture): `(f, id) => \`/v2/custom_field_definitions/${f.definition}/options/${id}\``. Without it every `:param`
   * is the id.
   */
  path?: (fx: F, id: string) => string;
  /** Query string (without `?`) sent on every request. */
  query?: (fx: F) => string;
  /** The `include` list (comma-separated) sent on every request; documents are checked for it. */
  include?: string;
  /** A valid body; `id` is the record named (for routes that take it in the body). */
  body?: (fx: F, id: string) => unknown;
  /** The success status (default 200). */
  status?: number;
  /** The answer is plain JSON, not a JSON:API document (infer_number, refresh). */
  plain?: boolean;
  /** A list: another account's list must hold none of the owner's ids; paged unless `paged: false`. */
  list?: boolean;
  paged?: boolean;
  /** Create routes: a body naming the owner's records, which another account's key must not get written. */
  foreignBody?: (fx: F) => unknown;
  /** Global routes: what of the answer must be the same for both accounts (default: all of it). */
  normalize?: (body: unknown) => unknown;
  /** Checks that do not apply to this route, each with the reason (registered as skipped, with it). */
  except?: Partial<Record<Check, string>>;
}

const NOT_A_UUID = 'not-a-uuid';

/**
 * Registers the shared checks of one route. `fixture` is read when the tests run (it is built in a
 * `beforeAll`). A route the app does not serve yet is skipped with a note, not passed.
 */
export function routeSuite<F extends SuiteContext>(fixture: () => F, spec: RouteSpec<F>): void {
  const name = spec.name ?? `${spec.method} ${spec.route}`;
  const status = spec.status ?? 200;
  const idIn = spec.idIn ?? 'path';
  const except = spec.except ?? {};
  const isWrite = spec.method !== 'GET';

  const served = (ctx: TestContext, fx: F) => {
    const key = routeKey(spec.method, spec.route);
    if (!fx.t.app.routeTable.some((r) => routeKey(r.method, r.url) === key)) ctx.skip(`${name} is not served by this app (yet)`);
  };
  const url = (fx: F, id: string | null, extra = '') => {
    const path =
      idIn === 'path' && id !== null
        ? (spec.path?.(fx, encodeURIComponent(id)) ?? spec.route.replace(/:[^/]+/g, encodeURIComponent(id)))
        : spec.route;
    const query = [spec.query?.(fx) ?? '', spec.include ? `include=${spec.include}` : '', extra].filter(Boolean).join('&');
    return query ? `${path}?${query}` : path;
  };
  const bodyFor = (fx: F, id: string | null) => spec.body?.(fx, id ?? '');
  const call = (fx: F, headers: Record<string, string>, id: string | null, extra = '') =>
    send(fx.t, spec.method, url(fx, id, extra), headers, bodyFor(fx, id));
  const ownId = async (fx: F) => (spec.id ? await spec.id(fx) : null);
  /** Checks a success answer, and the JSON:API rules when it is a document. */
  const expectOk = (fx: F, res: Answer, where: string, requestUrl: string) => {
    expect(res.status, `${where}: ${res.text.slice(0, 500)}`).toBe(status);
    if (res.status === 204) expect(res.text, `${where}: a 204 has no body`).toBe('');
    if (spec.plain || res.status === 204) return;
    expectValidDocument(res.json, includeOf(requestUrl), where);
    // api-wire-notes §1.5, §1.7: a read's document self link is absolute and echoes the request as sent.
    if (!isWrite) expect(res.json.links?.self, `${where}: document links.self`).toBe(`${fx.t.services.config.publicUrl}${requestUrl}`);
  };
  /** Both accounts' rows, to compare before and after requests that must write nothing. */
  const snapshot = async (fx: F) =>
    isWrite ? [await dumpAccount(fx.t.database.db, fx.owner.account.id), await dumpAccount(fx.t.database.db, fx.other.account.id)] : null;

  const skipped = (check: Check, title: string) => {
    const why = except[check];
    if (why === undefined) return false;
    it.skip(`${title} — does not apply: ${why}`, () => {});
    return true;
  };

  describe(name, () => {
    if (!skipped('auth', 'auth')) {
      it('auth: no key or a wrong key → 401 JSON:API; Token and Bearer schemes both accepted', async (ctx) => {
        const fx = fixture();
        served(ctx, fx);
        const id = await ownId(fx);
        const before = await snapshot(fx);
        const refused: Record<string, string>[] = [
          {},
          { authorization: 'Token tm_no_such_key' },
          { authorization: 'Bearer tm_no_such_key' },
          { authorization: 'Token ' },
        ];
        for (const headers of refused) {
          const res = await call(fx, headers, id);
          expectError(res, 401, `${name} with ${JSON.stringify(headers)}`);
          expect(res.json.errors[0].title, name).toBe('Unauthorized');
        }
        expect(changed(before, await snapshot(fx)), `${name}: a refused request wrote something`).toEqual([]);
        for (const scheme of ['Token', 'Bearer']) {
          const id = await ownId(fx);
          const res = await call(fx, { authorization: `${scheme} ${fx.owner.token}` }, id);
          expectOk(fx, res, `${name} with ${scheme}`, url(fx, id));
        }
      });
    }

    if (!skipped('tenant', 'tenant')) {
      if (spec.owner === 'global') {
        it('global: both accounts get the same answer', async (ctx) => {
          const fx = fixture();
          served(ctx, fx);
          const id = await ownId(fx);
          const mine = await call(fx, fx.owner.auth, id);
          expectOk(fx, mine, `${name} (owner)`, url(fx, id));
          const theirs = await call(fx, fx.other.auth, id);
          expectOk(fx, theirs, `${name} (other account)`, url(fx, id));
          const normalize = spec.normalize ?? ((b: unknown) => b);
          expect(normalize(theirs.json), `${name}: reference data differs between accounts`).toEqual(normalize(mine.json));
        });
      } else if (spec.id) {
        it("tenant: another account's key on the owner's record → 404 JSON, nothing written", async (ctx) => {
          const fx = fixture();
          served(ctx, fx);
          const id = await ownId(fx);
          const before = await snapshot(fx);
          const res = await call(fx, fx.other.auth, id);
          expectNotFound(res, `${name} on the owner's ${id} with another account's key`);
          expect(changed(before, await snapshot(fx)), `${name}: another account's refused request wrote something`).toEqual([]);
          // The record is real: its owner reaches it (the 404 above is not any 404).
          const again = await ownId(fx);
          const own = await call(fx, fx.owner.auth, again);
          expectOk(fx, own, `${name} (owner)`, url(fx, again));
        });
      } else if (spec.list) {
        it("tenant: another account's answer holds none of the owner's ids", async (ctx) => {
          const fx = fixture();
          served(ctx, fx);
          const db = fx.t.database.db;
          const ownerIds = await accountIds(db, fx.owner.account.id);
          const otherIds = await accountIds(db, fx.other.account.id);
          const extra = spec.paged === false ? '' : 'page[size]=100';
          const mine = await call(fx, fx.owner.auth, null, extra);
          expectOk(fx, mine, `${name} (owner)`, url(fx, null, extra));
          expect(idsIn(mine.text, ownerIds.keys()).length, `${name}: the owner's own answer shows none of its records`).toBeGreaterThan(0);
          const theirs = await call(fx, fx.other.auth, null, extra);
          expectOk(fx, theirs, `${name} (other account)`, url(fx, null, extra));
          expect(idsIn(theirs.text, ownerIds.keys()), `${name}: the owner's ids in another account's answer`).toEqual([]);
          expect(
            idsIn(theirs.text, otherIds.keys()).length,
            `${name}: the other account's answer shows none of its own records`,
          ).toBeGreaterThan(0);
        });
      } else if (spec.foreignBody) {
        it("tenant: a body naming the owner's records, sent with another account's key → 4xx, nothing written", async (ctx) => {
          const fx = fixture();
          served(ctx, fx);
          const before = await snapshot(fx);
          const res = await send(fx.t, spec.method, url(fx, null), fx.other.auth, spec.foreignBody!(fx));
          expect(res.status, `${name}: ${res.text.slice(0, 500)}`).toBeGreaterThanOrEqual(400);
          expect(res.status, `${name}: ${res.text.slice(0, 500)}`).toBeLessThan(500);
          expect(res.json?.errors?.length, `${name}: a JSON:API error body`).toBeGreaterThan(0);
          expect(changed(before, await snapshot(fx)), `${name}: another account's refused request wrote something`).toEqual([]);
        });
      } else {
        throw new Error(`${name}: the tenant check has nothing to run; give id, list or foreignBody, or an exclusion`);
      }
    }

    if (spec.id && !skipped('unknown-id', 'unknown ids')) {
      it('an unknown UUID and a non-UUID id → 404 JSON, nothing written', async (ctx) => {
        const fx = fixture();
        served(ctx, fx);
        for (const id of [newId(), NOT_A_UUID]) {
          const before = await snapshot(fx);
          expectNotFound(await call(fx, fx.owner.auth, id), `${name} with id ${id}`);
          expect(changed(before, await snapshot(fx)), `${name} with id ${id} wrote something`).toEqual([]);
        }
      });
    }

    if (!isWrite && spec.include?.includes(',')) {
      it('include: the comma list raw and as %2C give the same document', async (ctx) => {
        const fx = fixture();
        served(ctx, fx);
        const id = await ownId(fx);
        const raw = await call(fx, fx.owner.auth, id);
        expectOk(fx, raw, name, url(fx, id));
        const encodedUrl = url(fx, id).replace(/include=[^&]*/, (m) => m.replaceAll(',', '%2C'));
        const encoded = await send(fx.t, spec.method, encodedUrl, fx.owner.auth);
        expectOk(fx, encoded, `${name} with %2C`, encodedUrl);
        expect(encoded.json.data).toEqual(raw.json.data);
        expect(encoded.json.included).toEqual(raw.json.included);
        expect(raw.json.included?.length, `${name}: include=${spec.include} sideloaded nothing`).toBeGreaterThan(0);
      });
    }

    if (spec.list && spec.paged !== false && !skipped('paging', 'paging')) {
      /** The ids of a page, for comparing pages. */
      const ids = (res: Answer) => (res.json.data as { id: string }[]).map((r) => r.id);
      // A list under a record (a container's transport events) pages that record's children.
      const get = async (fx: F, extra: string) => call(fx, fx.owner.auth, await ownId(fx), extra);
      const ok = async (fx: F, extra: string) => {
        const id = await ownId(fx);
        const res = await call(fx, fx.owner.auth, id, extra);
        expectOk(fx, res, `${name}?${extra}`, url(fx, id, extra));
        return res;
      };

      it('paging: page[size]=1 gives one record and links.next exactly while a next page exists', async (ctx) => {
        const fx = fixture();
        served(ctx, fx);
        const all = await ok(fx, 'page[size]=100');
        const n = all.json.data.length as number;
        expect(n, `${name}: the fixture needs at least two records to page through`).toBeGreaterThanOrEqual(2);
        expect(n, `${name}: the fixture should fit one page of 100`).toBeLessThan(100);
        expect(all.json.links.next, `${name}: one page holds everything`).toBeUndefined();
        const first = await ok(fx, 'page[size]=1');
        expect(ids(first)).toEqual(ids(all).slice(0, 1));
        expect(first.json.links.next, `${name}: page 1 of ${n}`).toEqual(expect.any(String));
        const link = new URL(first.json.links.next);
        const next = await send(fx.t, 'GET', link.pathname + link.search, fx.owner.auth);
        expect(next.status, `${name}: links.next ${link}`).toBe(200);
        expectValidDocument(next.json, includeOf(link.search), `${name}: links.next`);
        expect(ids(next), `${name}: links.next leads to the second record`).toEqual(ids(all).slice(1, 2));
        const last = await ok(fx, `page[size]=1&page[number]=${n}`);
        expect(ids(last)).toEqual(ids(all).slice(n - 1));
        expect(last.json.links, `${name}: the last page`).not.toHaveProperty('next');
        const beyond = await ok(fx, `page[size]=1&page[number]=${n + 1}`);
        expect(beyond.json.data).toEqual([]);
        expect(beyond.json.links, `${name}: past the last page`).not.toHaveProperty('next');
      });

      it('paging: page[size]=500 is cut to 100', async (ctx) => {
        const fx = fixture();
        served(ctx, fx);
        const all = await ok(fx, 'page[size]=100');
        const big = await ok(fx, 'page[size]=500');
        expect(ids(big)).toEqual(ids(all));
        for (const [k, link] of Object.entries(big.json.links as Record<string, string>)) {
          if (k === 'self') continue;
          expect(link, `${name}: links.${k}`).toContain('page[size]=100');
          expect(link, `${name}: links.${k}`).not.toContain('page[size]=500');
        }
      });

      it('paging: page[size]=0, page[size]=abc, page[number]=0 → 400 naming the parameter (raw and percent-encoded)', async (ctx) => {
        const fx = fixture();
        served(ctx, fx);
        for (const [query, parameter] of [
          ['page[size]=0', 'page[size]'],
          ['page[size]=abc', 'page[size]'],
          ['page[number]=0', 'page[number]'],
          ['page%5Bsize%5D=0', 'page[size]'],
          ['page%5Bnumber%5D=0', 'page[number]'],
        ] as const) {
          const res = await get(fx, query);
          expectError(res, 400, `${name}?${query}`);
          expect(res.json.errors[0].source, `${name}?${query}`).toEqual({ parameter });
        }
      });

      it('paging: raw and percent-encoded brackets page alike', async (ctx) => {
        const fx = fixture();
        served(ctx, fx);
        const raw = await ok(fx, 'page[number]=2&page[size]=1');
        const encoded = await ok(fx, 'page%5Bnumber%5D=2&page%5Bsize%5D=1');
        expect(ids(encoded)).toEqual(ids(raw));
        expect(ids(raw)).toHaveLength(1);
        const { self: _a, ...rawLinks } = raw.json.links;
        const { self: _b, ...encodedLinks } = encoded.json.links;
        expect(encodedLinks).toEqual(rawLinks);
        expect(raw.json.meta).toEqual(encoded.json.meta);
      });
    }
  });
}

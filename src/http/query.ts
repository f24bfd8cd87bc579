// Query strings as JSON:API clients send them: brackets raw (`page[number]=2`) or percent-encoded
// (`page%5Bnumber%5D=2`), nested (`filter[created_at][start]`), arrays (`port_of_lading[]=USLAX`), and
// comma lists raw or as `%2C` (kept as one string; the handler splits them).
import qs from 'qs';
import { z } from 'zod';

const QS_OPTIONS = { depth: 4, arrayLimit: 100, parameterLimit: 200, allowPrototypes: false };
const BRACKETS = /[[\]]|%5[bd]/i;
const has = (o: object, key: string) => Object.hasOwn(o, key);

export function parseQuery(query: string): Record<string, unknown> {
  return (BRACKETS.test(query) ? null : plainPairs(query)) ?? qs.parse(query, QS_OPTIONS);
}

/**
 * What qs makes of a query without brackets and without a repeated name (most requests: `include=…`), without
 * qs's general machinery, which showed in the profile of every request; null for anything else (qs reads it).
 * The same reading: at most 200 parameters, `+` is a space, a malformed escape is kept as written, no name given
 * twice, nameless pairs and names of Object.prototype's properties dropped.
 */
function plainPairs(query: string): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const part of query.split('&', QS_OPTIONS.parameterLimit)) {
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    if (!key || has(Object.prototype, key)) continue;
    if (has(out, key)) return null;
    out[key] = eq === -1 ? '' : decode(part.slice(eq + 1));
  }
  return out;
}

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

// Query parameters as routes declare them in their `querystring` schema, so that the request is checked (a 400
// naming the parameter, in the sentence given here) and typed before the handler runs, and /v2/openapi.json
// describes them. The sentences start with the verb: the error formatter puts the parameter's name before them.

/**
 * A parameter that takes one value, trimmed: `''` when blank (the handler reads that as no filter); given twice
 * or with brackets under it (an array or an object, as the query parser delivers them), a 400 naming it.
 */
export const oneValue = () => z.string({ error: 'must be a single value' }).trim();

/** One value out of a closed list, or undefined when absent or blank; anything else a 400 with `message`. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, message = `must be one of ${values.join(', ')}`) {
  const allowed: readonly string[] = values;
  const isOne = (v: string): v is T[number] => allowed.includes(v);
  return oneValue()
    .transform((v, ctx): T[number] | undefined => {
      if (v === '') return undefined;
      if (isOne(v)) return v;
      ctx.addIssue({ code: 'custom', message, input: v });
      return z.NEVER;
    })
    .optional()
    .describe(`One of ${values.join(', ')}`);
}

/** One value that `check` accepts, or undefined when absent or blank; anything else a 400 with `message`. */
export function checkedValue(check: (value: string) => boolean, message: string) {
  return oneValue()
    .transform((v, ctx): string | undefined => {
      if (v === '') return undefined;
      if (check(v)) return v;
      ctx.addIssue({ code: 'custom', message, input: v });
      return z.NEVER;
    })
    .optional();
}

/**
 * The `filter[name]=value` parameters of a list, as the query parser delivers them (an object under `filter`).
 * A bare `filter=x` is a 400. A name the list does not declare is ignored, or, given `unknown` (the sentence after
 * `filter[name]`), a 400 naming it.
 */
export function filterParams<S extends z.ZodRawShape>(shape: S, unknown?: string) {
  const names = new Set(Object.keys(shape));
  return z
    .object(shape, { error: 'must be given as filter[name]=value' })
    .catchall(z.unknown())
    .check((ctx) => {
      if (!unknown) return;
      for (const [name, value] of Object.entries(ctx.value)) {
        if (!names.has(name)) ctx.issues.push({ code: 'custom', message: unknown, path: [name], input: value });
      }
    })
    .optional()
    .describe('Filters, each as filter[name]=value');
}

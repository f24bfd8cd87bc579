// Text PostgreSQL cannot store — NUL (refused in text and jsonb alike) and unpaired UTF-16 surrogates (no UTF-8
// form: the driver would silently write U+FFFD) — and where it sits in a parsed body, query or tool input.

export type Unstorable = 'nul' | 'surrogate';

/** A quick test that most text fails; only text with a NUL or a surrogate is looked at character by character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for.
const SUSPECT = /[\u0000\ud800-\udfff]/;

/** What in `text` cannot be stored, or null when all of it can. */
export function unstorableIn(text: string): Unstorable | null {
  if (!SUSPECT.test(text)) return null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return 'nul';
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return 'surrogate';
    }
    if (c >= 0xdc00 && c <= 0xdfff) return 'surrogate';
  }
  return null;
}

export interface UnstorableText {
  /** Object keys and array indexes from the root to the value (or the member name) holding the text. */
  path: (string | number)[];
  /** The text is a member name (an object key), not a value. */
  inName: boolean;
  what: Unstorable;
}

interface Node {
  value: unknown;
  key: string | number | null;
  parent: Node | null;
  /** The node stands for its member name, which cannot be stored, not for its value. */
  badName?: Unstorable;
}

function pathOf(node: Node): (string | number)[] {
  const out: (string | number)[] = [];
  for (let n: Node | null = node; n && n.key !== null; n = n.parent) out.push(n.key);
  return out.reverse();
}

/**
 * Every string (value or member name) in a parsed body, query or parameter object that cannot be stored, in document
 * order, at most `limit`. Iterative, and paths are built only for what is found: a deeply nested body costs no stack.
 */
export function findUnstorable(root: unknown, limit = 20): UnstorableText[] {
  const found: UnstorableText[] = [];
  const stack: Node[] = [{ value: root, key: null, parent: null }];
  while (stack.length && found.length < limit) {
    const node = stack.pop()!;
    if (node.badName) {
      found.push({ path: pathOf(node), inName: true, what: node.badName });
      continue;
    }
    const { value } = node;
    if (typeof value === 'string') {
      const what = unstorableIn(value);
      if (what) found.push({ path: pathOf(node), inName: false, what });
      continue;
    }
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) continue;
    const children: Node[] = [];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) children.push({ value: value[i], key: i, parent: node });
    } else {
      for (const [key, child] of Object.entries(value)) {
        const badName = unstorableIn(key);
        if (badName) children.push({ value: undefined, key, parent: node, badName });
        children.push({ value: child, key, parent: node });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}

const WHAT: Record<Unstorable, string> = {
  nul: 'a NUL character (U+0000)',
  surrogate: 'an unpaired UTF-16 surrogate (not a Unicode character)',
};

/** Why text is refused, for a person: "`company_name` contains a NUL character (U+0000), which cannot be stored". */
export function describeUnstorable(name: string, found: Pick<UnstorableText, 'inName' | 'what'>): string {
  const subject = found.inName ? `The name ${JSON.stringify(name)}` : name ? `${name}` : 'The value';
  return `${subject} contains ${WHAT[found.what]}, which cannot be stored; remove it and try again`;
}

/** `['data', 'attributes', 'a/b']` → `/data/attributes/a~1b` (RFC 6901). */
export function toPointer(path: (string | number)[]): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** `['filter', 'number']` → `filter[number]`; a repeated parameter's index is dropped (`q=a&q=b` is `q`). */
export function toParameter(path: (string | number)[]): string {
  const names = path.filter((p): p is string => typeof p === 'string');
  const [first, ...rest] = names;
  return (first ?? '') + rest.map((p) => `[${p}]`).join('');
}

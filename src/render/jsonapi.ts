// JSON:API documents as the reference API shapes them: every declared relationship present (null or
// []), relative resource links, absolute document links, de-duplicated `included` resolved from
// dotted include paths, and page links that are omitted (never null) when they do not apply.
import { badRequest } from '../domain/errors.js';

export interface Ref {
  id: string;
  type: string;
}

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: Ref | Ref[] | null }>;
  links?: { self: string };
}

/** A related record found by an include loader, with the kind that renders it. */
export interface Related {
  // biome-ignore lint/suspicious/noExplicitAny: kinds of different record types meet here
  kind: ResourceKind<any>;
  record: unknown;
}

export interface RelationshipDef<T> {
  /** Kinds the relationship can point at (more than one for polymorphic ones), for validating paths. */
  // biome-ignore lint/suspicious/noExplicitAny: see Related
  targets: () => ResourceKind<any>[];
  /** Loads the related records of a page of records (one query for the page, not one per record). */
  load(records: T[]): Promise<Related[]>;
}

/**
 * How one type is rendered. `R` is the wire object's type where the renderer is typed by its schema
 * (`ResourceKind<Party, Resource<'party'>>`, src/render/schemas.ts): an attribute the schema lacks, or a value
 * it does not allow, then fails typecheck.
 */
export interface ResourceKind<T, R extends ResourceObject = ResourceObject> {
  type: string;
  render(record: T): R;
  /**
   * Relationships that `include` may name. `null`: a relationship of the wire format whose records
   * Tidemark does not hold yet; naming it is valid and includes nothing.
   */
  includable: Record<string, RelationshipDef<T> | null>;
}

export type IncludeTree = Map<string, IncludeTree>;

/**
 * Parses and validates `include` (comma list, dotted paths) against what each level can include.
 * Unknown names → 400 with `source.parameter: include`, as the reference API answers.
 */
// biome-ignore lint/suspicious/noExplicitAny: see Related
export function parseInclude(raw: unknown, kind: ResourceKind<any>): IncludeTree {
  const tree: IncludeTree = new Map();
  if (raw === undefined || raw === '') return tree;
  if (typeof raw !== 'string') throw badRequest('include must be a comma-separated list', { parameter: 'include' });
  for (const path of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    // biome-ignore lint/suspicious/noExplicitAny: see Related
    let kinds: ResourceKind<any>[] = [kind];
    let node = tree;
    for (const name of path.split('.')) {
      const declared = kinds.filter((k) => Object.hasOwn(k.includable, name));
      const defs = declared.map((k) => k.includable[name]).filter((d): d is RelationshipDef<unknown> => !!d);
      if (declared.length === 0) {
        throw badRequest(`${name} is not specified as a relationship on ${kinds.map((k) => k.type).join(' or ')}`, {
          parameter: 'include',
        });
      }
      kinds = defs.flatMap((d) => d.targets());
      let child = node.get(name);
      if (!child) {
        child = new Map();
        node.set(name, child);
      }
      node = child;
    }
  }
  return tree;
}

/** Loads every included resource for `records`, de-duplicated by type and id, primary data excluded. */
export async function resolveIncluded<T>(kind: ResourceKind<T>, records: T[], tree: IncludeTree): Promise<ResourceObject[]> {
  const seen = new Map<string, ResourceObject>();
  const primary = new Set(records.map((r) => key(kind.render(r))));

  // biome-ignore lint/suspicious/noExplicitAny: see Related
  async function walk(k: ResourceKind<any>, recs: unknown[], node: IncludeTree): Promise<void> {
    for (const [name, child] of node) {
      const def = k.includable[name];
      if (!def || recs.length === 0) continue;
      const related = await def.load(recs);
      // biome-ignore lint/suspicious/noExplicitAny: see Related
      const byKind = new Map<ResourceKind<any>, unknown[]>();
      const added: [string, Related][] = [];
      for (const r of related) {
        const obj = r.kind.render(r.record);
        const id = key(obj);
        if (!primary.has(id) && !seen.has(id)) {
          seen.set(id, obj);
          added.push([id, r]);
        }
        const list = byKind.get(r.kind) ?? [];
        list.push(r.record);
        byKind.set(r.kind, list);
      }
      if (child.size) {
        for (const [ck, crecs] of byKind) await walk(ck, crecs, child);
        // Rendered again (in place): an include may put on its records what they render (`custom_fields`).
        for (const [id, r] of added) seen.set(id, r.kind.render(r.record));
      }
    }
  }

  await walk(kind, records, tree);
  return [...seen.values()];
}

const key = (r: Ref) => `${r.type}:${r.id}`;

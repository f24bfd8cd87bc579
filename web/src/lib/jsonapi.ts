// JSON:API documents as the /v2 API answers them, and helpers to follow relationships into `included`.

export interface Ref {
  id: string;
  type: string;
}

export interface Resource<A = Record<string, unknown>> {
  id: string;
  type: string;
  attributes: A;
  relationships?: Record<string, { data: Ref | Ref[] | null }>;
  links?: Record<string, string>;
}

export interface Links {
  self?: string;
  current?: string;
  first?: string;
  prev?: string;
  next?: string;
  last?: string;
}

export interface Doc<A = Record<string, unknown>> {
  data: Resource<A>;
  included?: Resource[];
  links?: Links;
  meta?: Record<string, unknown>;
}

export interface ListDoc<A = Record<string, unknown>> {
  data: Resource<A>[];
  included?: Resource[];
  links?: Links;
  meta?: { total?: number; size?: number } & Record<string, unknown>;
}

/** Looks up included resources by type and id. */
export class Included {
  readonly #byKey = new Map<string, Resource>();

  constructor(included: Resource[] | undefined) {
    for (const r of included ?? []) this.#byKey.set(`${r.type}:${r.id}`, r);
  }

  get<A = Record<string, unknown>>(ref: Ref | null | undefined): Resource<A> | undefined {
    return ref ? (this.#byKey.get(`${ref.type}:${ref.id}`) as Resource<A> | undefined) : undefined;
  }

  /** The resource a to-one relationship points at, when it is included. */
  one<A = Record<string, unknown>>(resource: Resource<unknown>, relationship: string): Resource<A> | undefined {
    const data = resource.relationships?.[relationship]?.data;
    return data && !Array.isArray(data) ? this.get<A>(data) : undefined;
  }

  /** The included resources a to-many relationship points at, in its order. */
  many<A = Record<string, unknown>>(resource: Resource<unknown>, relationship: string): Resource<A>[] {
    const data = resource.relationships?.[relationship]?.data;
    if (!Array.isArray(data)) return [];
    return data.flatMap((ref) => this.get<A>(ref) ?? []);
  }
}

/** The ids a relationship points at (to-one or to-many). */
export function refsOf(resource: Resource<unknown>, relationship: string): Ref[] {
  const data = resource.relationships?.[relationship]?.data;
  if (!data) return [];
  return Array.isArray(data) ? data : [data];
}

/** Total pages of a list (from `meta.total`), at least 1. */
export function pageCount(doc: ListDoc<unknown> | undefined, size: number): number {
  const total = doc?.meta?.total;
  return typeof total === 'number' ? Math.max(1, Math.ceil(total / size)) : 1;
}

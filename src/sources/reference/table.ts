// Helpers shared by the reference tables: code normalisation, freezing and indexes built once at module load.

/** How every code lookup compares: trimmed and upper case (SCACs, UN/LOCODEs, FIRMS and SMDG codes are upper case). */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Freezes a record and its array-valued fields: reference data is shared by every account and must not change. */
export function freezeRecord<T extends object>(record: T): Readonly<T> {
  for (const value of Object.values(record)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(record);
}

/**
 * Maps every (normalised) key of every record to that record. A key claimed by two different records is a data
 * error: it throws at load, so the tests catch it before anything ships.
 */
export function uniqueIndex<T>(
  records: readonly T[],
  keys: (record: T) => readonly (string | null)[],
  what: string,
): ReadonlyMap<string, T> {
  const index = new Map<string, T>();
  for (const record of records) {
    for (const raw of keys(record)) {
      if (raw === null) continue;
      const key = normalizeCode(raw);
      const other = index.get(key);
      if (other !== undefined && other !== record) throw new Error(`reference data: ${what} ${key} belongs to two records`);
      index.set(key, record);
    }
  }
  return index;
}

/** Groups records by one (normalised) key, keeping table order within each group. */
export function groupIndex<T>(records: readonly T[], key: (record: T) => string | null): ReadonlyMap<string, readonly T[]> {
  const index = new Map<string, T[]>();
  for (const record of records) {
    const raw = key(record);
    if (raw === null) continue;
    const k = normalizeCode(raw);
    const group = index.get(k);
    if (group) group.push(record);
    else index.set(k, [record]);
  }
  for (const group of index.values()) Object.freeze(group);
  return index;
}

/** Looks a wire id up in a table's id index (UUIDs compare case-insensitively). */
export function byId<T extends { readonly id: string }>(records: readonly T[]): (id: string) => T | undefined {
  const index = new Map(records.map((r) => [r.id, r]));
  if (index.size !== records.length) throw new Error('reference data: two records share a wire id');
  return (id) => index.get(id.trim().toLowerCase());
}

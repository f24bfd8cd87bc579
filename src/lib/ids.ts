// Wire ids: UUIDv7 (time-sortable) for per-account records, UUIDv5 of the natural key for reference data.
import { v5, v7, validate } from 'uuid';

/** Tidemark's UUIDv5 namespace; changing it would change every reference-data id on every install. */
export const TIDEMARK_NAMESPACE = '6d1f3b8e-2c4a-5e7f-9a1b-3c5d7e9f1a2b';

export function newId(): string {
  return v7();
}

/** A stable id for reference data, e.g. referenceId('port', 'USLAX'). */
export function referenceId(kind: string, naturalKey: string): string {
  return v5(`${kind}:${naturalKey.toUpperCase()}`, TIDEMARK_NAMESPACE);
}

export function isUuid(value: string): boolean {
  return validate(value);
}

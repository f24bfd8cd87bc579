// `initial_custom_fields` of a tracking request (docs/custom-fields.md "Values staged with a tracking request"): the
// values a client stages for the shipment and its containers, and which container each staged container value goes
// to once the request has resolved to its shipment. Pure: the service checks the values, the engine writes them.

/** A value staged for the shipment. */
export interface StagedValue {
  api_slug: string;
  value: unknown;
}
/** A value staged for the containers: `number` names one; missing, null or blank means every container. */
export interface StagedContainerValue extends StagedValue {
  number?: string | null | undefined;
}
export interface InitialCustomFields {
  shipment: StagedValue[];
  containers: StagedContainerValue[];
}

/**
 * At most this many values per list: each container value is written to every container it names, in the
 * transaction that makes the shipment, so the lists are kept short (and a field is staged once per target).
 */
export const MAX_STAGED = 50;
/** Longer than any container number, however spaced. */
const MAX_NUMBER_LENGTH = 20;

/** A container number as containers are stored: upper case, without spaces or dashes; '' for none. */
export function containerNumberKey(number: string | null | undefined): string {
  return (number ?? '').replace(/[\s-]/g, '').toUpperCase();
}

/** Why a staged container's `number` can never name a container, or null. */
export function stagedNumberProblem(number: string | null | undefined): string | null {
  return containerNumberKey(number).length > MAX_NUMBER_LENGTH
    ? `Number is too long to be a container number (at most ${MAX_NUMBER_LENGTH} characters)`
    : null;
}

/** Why a staged value cannot be staged at all (before its definition is asked), or null. */
export function stagedValueProblem(item: { value?: unknown }): string | null {
  return item.value === undefined ? "Value can't be blank (send null to stage no value)" : null;
}

/**
 * The indexes of staged values that repeat an earlier one's field and target (the same `api_slug`, and for the
 * containers the same container number however typed, or both no number): each is refused, for it would only
 * overwrite the earlier one.
 */
export function repeatedStaged(items: readonly StagedContainerValue[]): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  for (const [index, item] of items.entries()) {
    const key = JSON.stringify([item.api_slug, containerNumberKey(item.number)]);
    if (seen.has(key)) repeated.push(index);
    seen.add(key);
  }
  return repeated;
}

/**
 * Reads what was stored with a request (the JSON as sent and checked); anything else reads as nothing staged, so that
 * a row no version of Tidemark wrote cannot stop the request from resolving.
 */
export function readStaged(stored: unknown): InitialCustomFields {
  const o = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const items = (v: unknown) =>
    (Array.isArray(v) ? v : []).filter(
      (i): i is StagedContainerValue => typeof i === 'object' && i !== null && typeof (i as { api_slug?: unknown }).api_slug === 'string',
    );
  return {
    shipment: items(o.shipment).map((i) => ({ api_slug: i.api_slug, value: i.value ?? null })),
    containers: items(o.containers).map((i) => ({
      api_slug: i.api_slug,
      value: i.value ?? null,
      number: typeof i.number === 'string' ? i.number : null,
    })),
  };
}

/** One staged container value to write: the item's index in `containers`, and the container it goes to. */
export interface ContainerWrite {
  index: number;
  containerId: string;
  api_slug: string;
  value: unknown;
}
/** A staged value that was not applied, and why. */
export interface Skipped {
  entity: 'shipment' | 'container';
  index: number;
  api_slug: string;
  number: string | null;
  reason: string;
}

/**
 * Where each staged container value goes among the shipment's containers: a named number to that container (typed
 * any way: spaces, dashes, lower case), no number to every container, in the order staged (a later value of the same
 * field on the same container overwrites an earlier one). A number that is not on the shipment is skipped: the value
 * is not put on some other container, and nothing else is held back for it.
 */
export function planContainerValues(
  staged: readonly StagedContainerValue[],
  containers: readonly { id: string; number: string }[],
): { writes: ContainerWrite[]; skipped: Skipped[] } {
  const byNumber = new Map(containers.map((c) => [containerNumberKey(c.number), c.id]));
  const writes: ContainerWrite[] = [];
  const skipped: Skipped[] = [];
  for (const [index, item] of staged.entries()) {
    const key = containerNumberKey(item.number);
    const targets = key === '' ? containers.map((c) => c.id) : byNumber.has(key) ? [byNumber.get(key)!] : [];
    if (key !== '' && targets.length === 0) {
      skipped.push({
        entity: 'container',
        index,
        api_slug: item.api_slug,
        number: key,
        reason: `Container ${key} is not on the shipment`,
      });
    }
    for (const containerId of targets) writes.push({ index, containerId, api_slug: item.api_slug, value: item.value });
  }
  return { writes, skipped };
}

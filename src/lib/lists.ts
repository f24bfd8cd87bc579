/** Trimmed, blank entries dropped, duplicates once, in the order given (reference numbers, tags). */
export function cleanList(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter(Boolean))];
}

/** A LIKE/ILIKE pattern that finds `text` anywhere, its wildcards (`%`, `_`) and the escape (`\`) taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// A data table: a caption, sortable column headers (buttons, with `aria-sort` on the sorted column), an
// empty state, and horizontal scrolling inside a focusable region on narrow screens.
import type { ComponentChildren } from 'preact';
import { useId, useMemo, useState } from 'preact/hooks';

export type SortDir = 'asc' | 'desc';
export interface Sort {
  key: string;
  dir: SortDir;
}

export interface Column<R> {
  key: string;
  header: ComponentChildren;
  cell: (row: R) => ComponentChildren;
  /** The value rows are ordered by; a column without it cannot be sorted. Null and undefined sort last. */
  sortValue?: (row: R) => string | number | boolean | null | undefined;
  /** Numbers and dates read better aligned to the end. */
  align?: 'start' | 'end';
  /** This column names the row (`<th scope="row">`): a number, an id, a name. */
  rowHeader?: boolean;
  class?: string;
}

interface Props<R> {
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R) => string;
  /** What the table shows; required for screen readers (hide it with `hideCaption` when a heading says it). */
  caption: string;
  hideCaption?: boolean;
  empty?: ComponentChildren;
  /** Uncontrolled: the first order; the user changes it by clicking the headers. */
  initialSort?: Sort;
  /** Controlled (e.g. sorted by the server): the current order and what a header click asks for. */
  sort?: Sort | null;
  onSort?: (sort: Sort) => void;
  rowClass?: (row: R) => string | undefined;
}

function compare(a: unknown, b: unknown): number {
  const an = a === null || a === undefined || a === '';
  const bn = b === null || b === undefined || b === '';
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

export function DataTable<R>({ columns, rows, rowKey, caption, hideCaption, empty, initialSort, sort, onSort, rowClass }: Props<R>) {
  const captionId = useId();
  const [own, setOwn] = useState<Sort | null>(initialSort ?? null);
  const controlled = onSort !== undefined;
  const current = controlled ? (sort ?? null) : own;

  const sorted = useMemo(() => {
    if (controlled || !current) return rows;
    const col = columns.find((c) => c.key === current.key);
    if (!col?.sortValue) return rows;
    const value = col.sortValue;
    const out = [...rows].sort((x, y) => {
      const vx = value(x);
      const vy = value(y);
      // Empty values stay last whatever the direction.
      const empties = compare(vx, vy);
      const xe = vx === null || vx === undefined || vx === '';
      const ye = vy === null || vy === undefined || vy === '';
      if (xe || ye) return empties;
      return current.dir === 'asc' ? empties : -empties;
    });
    return out;
  }, [rows, columns, current, controlled]);

  const toggle = (key: string) => {
    const next: Sort = current?.key === key && current.dir === 'asc' ? { key, dir: 'desc' } : { key, dir: 'asc' };
    if (controlled) onSort(next);
    else setOwn(next);
  };

  return (
    // A region that may scroll sideways (narrow screens) must be focusable so keyboard users can scroll it. Its
    // name says it is the table, so it never repeats the name of the section around it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: see above (WCAG 2.1.1; axe scrollable-region-focusable)
    <section class="table-scroll" aria-label={`Table: ${caption}`} tabIndex={0}>
      <table class="data-table">
        <caption id={captionId} class={hideCaption ? 'visually-hidden' : undefined}>
          {caption}
        </caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const sortedHere = current?.key === c.key;
              const ariaSort = sortedHere ? (current!.dir === 'asc' ? 'ascending' : 'descending') : undefined;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={ariaSort}
                  class={[c.align === 'end' ? 'align-end' : '', c.class ?? ''].join(' ').trim() || undefined}
                >
                  {c.sortValue ? (
                    <button type="button" class="sort-button" onClick={() => toggle(c.key)}>
                      {c.header}
                      <span class="sort-indicator" aria-hidden="true">
                        {sortedHere ? (current!.dir === 'asc' ? '▲' : '▼') : '↕'}
                      </span>
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.length === 0 ? (
            <tr>
              <td colSpan={columns.length} class="table-empty">
                {empty ?? 'Nothing to show.'}
              </td>
            </tr>
          ) : (
            sorted.map((row) => (
              <tr key={rowKey(row)} class={rowClass?.(row)}>
                {columns.map((c) => {
                  const cls = [c.align === 'end' ? 'align-end' : '', c.class ?? ''].join(' ').trim() || undefined;
                  return c.rowHeader ? (
                    <th key={c.key} scope="row" class={cls}>
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td key={c.key} class={cls}>
                      {c.cell(row)}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}

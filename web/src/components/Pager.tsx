// Previous / next paging for JSON:API lists (`page[number]` from 1), as a labelled navigation landmark.
export function Pager({
  page,
  pages,
  total,
  onPage,
  label = 'Pages',
}: {
  page: number;
  pages: number;
  total?: number | undefined;
  onPage: (page: number) => void;
  label?: string;
}) {
  if (pages <= 1 && page <= 1) return total !== undefined ? <p class="pager-summary">{plural(total, 'item')}</p> : null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="button-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <span aria-hidden="true">←</span> Previous
      </button>
      <span class="pager-summary" aria-live="polite">
        Page {page} of {pages}
        {total !== undefined ? ` · ${plural(total, 'item')}` : ''}
      </span>
      <button type="button" class="button-secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next <span aria-hidden="true">→</span>
      </button>
    </nav>
  );
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? word : many}`;
}

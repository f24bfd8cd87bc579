// Bulk tracking: a CSV file (number, type, scac) read in the browser, one POST /v2/tracking_requests per row in
// order, and each row's result — the created request's id, or the error in words.
import { useState } from 'preact/hooks';
import { ErrorMessage } from '../../components/Alert';
import { type Column, DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Facts';
import { plural } from '../../components/Pager';
import { ApiError, messageOf } from '../../lib/api';
import { type BulkRow, MAX_ROWS, parseTrackingCsv } from '../../lib/bulk';
import { REQUEST_TYPES } from '../../lib/tracking';
import { track } from './track';

interface Result {
  row: BulkRow;
  state: 'waiting' | 'sending' | 'created' | 'failed' | 'skipped';
  text: string;
}

const typeLabel = (t: string) => REQUEST_TYPES.find((x) => x.value === t)?.label ?? 'Guess from the number';

export function BulkUpload({ onTracked }: { onTracked: () => void }) {
  const [fileName, setFileName] = useState('');
  const [results, setResults] = useState<Result[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState(false);

  const choose = async (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    setResults([]);
    setErrors([]);
    setDone(false);
    if (!file) return;
    setFileName(file.name);
    if (file.size > 1_000_000) {
      setErrors(['The file is larger than 1 MB: split it into smaller files.']);
      return;
    }
    try {
      const parsed = await parseTrackingCsv(await file.text());
      setErrors(parsed.errors);
      setResults(
        parsed.rows.map((row) =>
          row.problem ? { row, state: 'skipped', text: row.problem } : { row, state: 'waiting', text: 'Not sent yet' },
        ),
      );
    } catch (err) {
      setErrors([`The file could not be read: ${(err as Error).message ?? 'unknown error'}.`]);
    }
  };

  const send = async () => {
    setRunning(true);
    const list = [...results];
    const update = (i: number, r: Partial<Result>) => {
      list[i] = { ...list[i]!, ...r };
      setResults([...list]);
    };
    let created = 0;
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      if (r.state !== 'waiting') continue;
      update(i, { state: 'sending', text: 'Sending…' });
      try {
        const doc = await track(r.row.number, r.row.type, r.row.scac);
        created++;
        update(i, { state: 'created', text: `Created request ${doc.data.id} (${doc.data.attributes.status})` });
      } catch (err) {
        update(i, { state: 'failed', text: err instanceof ApiError ? err.message : messageOf(err) });
        if (err instanceof ApiError && err.status === 429) {
          // Over the tracking rate limit: wait as told, then carry on with the same row.
          await new Promise((r2) => window.setTimeout(r2, (err.retryAfter ?? 10) * 1000));
          update(i, { state: 'waiting', text: 'Not sent yet' });
          i--;
        }
      }
    }
    setRunning(false);
    setDone(true);
    if (created) onTracked();
  };

  const waiting = results.filter((r) => r.state === 'waiting').length;
  const sent = results.filter((r) => r.state === 'created' || r.state === 'failed').length;
  const columns: Column<Result>[] = [
    { key: 'line', header: 'Line', cell: (r) => r.row.line, align: 'end' },
    { key: 'number', header: 'Number', rowHeader: true, cell: (r) => <code>{r.row.number || '—'}</code> },
    { key: 'type', header: 'Type', cell: (r) => (r.row.type || !r.row.typeText ? typeLabel(r.row.type) : <code>{r.row.typeText}</code>) },
    { key: 'scac', header: 'Carrier', cell: (r) => r.row.scac || 'Detect' },
    {
      key: 'result',
      header: 'Result',
      cell: (r) => (
        <span class="bulk-result">
          <Badge tone={r.state === 'created' ? 'good' : r.state === 'failed' || r.state === 'skipped' ? 'bad' : 'neutral'}>
            {r.state === 'created' ? 'Created' : r.state === 'failed' ? 'Error' : r.state === 'skipped' ? 'Skipped' : r.state === 'sending' ? 'Sending' : 'Waiting'}
          </Badge>{' '}
          {r.text}
        </span>
      ),
    },
  ];

  return (
    <div class="bulk-upload">
      <div class="field">
        <label class="field-label" for="bulk-file">
          CSV file
        </label>
        <p id="bulk-file-hint" class="field-hint">
          One number a line, columns <code>number,type,scac</code> (a header row is optional). Type is <code>bill_of_lading</code>,{' '}
          <code>booking_number</code> or <code>container</code>, or blank to guess; a blank SCAC lets Tidemark detect the carrier. At most{' '}
          {MAX_ROWS} rows.
        </p>
        <input id="bulk-file" type="file" accept=".csv,text/csv,text/plain" aria-describedby="bulk-file-hint" onChange={choose} disabled={running} />
      </div>
      <ErrorMessage messages={errors} />
      {results.length > 0 && (
        <>
          <div class="button-row">
            {(running || waiting > 0) && (
              <button type="button" class="button-primary" onClick={send} disabled={running}>
                {running ? 'Sending…' : `Track ${plural(waiting, 'number')}`}
              </button>
            )}
            <span class="muted" role="status" aria-live="polite">
              {running ? `${sent} of ${results.length} sent` : done ? `Done: ${sent} sent.` : `${fileName}: ${plural(results.length, 'row')} read.`}
            </span>
          </div>
          <DataTable caption={`Rows of ${fileName}`} columns={columns} rows={results} rowKey={(r) => String(r.row.line)} />
        </>
      )}
    </div>
  );
}

// The search box and the filters of the shipments list. Applying them writes them into the URL (one history
// entry), which the list reads.
import { useEffect, useState } from 'preact/hooks';
import { SelectField, TextField } from '../../components/Field';
import type { Definition } from '../../lib/custom-fields';
import { customFilterParams, filterDraftOf, filterTextOf } from '../../lib/custom-fields-query';
import { containerStatusLabel } from '../../lib/labels';
import { setQuery } from '../../lib/router';
import { lineLabel, useShippingLines } from '../../lib/shippingLines';
import { CONTAINER_STATUSES } from '../../lib/tracking';
import { CustomFieldFilter } from './CustomFieldFilter';
import { activeFilterCount, FILTER_KEYS, type ShipmentFilters } from './filters';

export function FiltersForm({ filters, definitions }: { filters: ShipmentFilters; definitions?: Definition[] | undefined }) {
  const [draft, setDraft] = useState<ShipmentFilters>(filters);
  // The custom-field filter being edited (one at a time): its slug and what its control holds.
  const [cfSlug, setCfSlug] = useState('');
  const [cfDraft, setCfDraft] = useState('');
  // The URL changed (Back, a link, Clear), or the definitions came: show what it says.
  useEffect(() => {
    setDraft(filters);
    const [slug, text] = Object.entries(filters.custom)[0] ?? ['', ''];
    const def = definitions?.find((d) => d.slug === slug);
    setCfSlug(slug);
    setCfDraft(def ? filterDraftOf(def, text) : text);
  }, [JSON.stringify(filters), definitions]);
  const { lines } = useShippingLines();
  const [error, setError] = useState<Partial<Record<keyof ShipmentFilters, string>>>({});
  const set = (k: keyof ShipmentFilters) => (v: string) => setDraft((d) => ({ ...d, [k]: v }));
  const count = activeFilterCount(filters);
  const [open, setOpen] = useState(count > 0);

  const apply = (e: Event) => {
    e.preventDefault();
    const problems: typeof error = {};
    const pod = draft.pod.trim().toUpperCase();
    if (pod && !pod.split(/[\s,]+/).filter(Boolean).every((c) => /^[A-Z]{2}[A-Z0-9]{3}$/.test(c)))
      problems.pod = 'Give UN/LOCODEs such as USLAX, separated by commas.';
    if (draft.since && draft.until && draft.since > draft.until) problems.until = 'This day is before the first one.';
    const custom: Record<string, string> = {};
    if (cfSlug) {
      const def = definitions?.find((d) => d.slug === cfSlug);
      const text = def
        ? filterTextOf(def, cfDraft)
        : cfDraft.trim()
          ? { ok: true as const, value: cfDraft.trim() }
          : { ok: false as const, message: 'Enter a value.' };
      if (text.ok) custom[cfSlug] = String(text.value);
      else problems.custom = text.message;
    }
    setError(problems);
    if (Object.keys(problems).length) return;
    const next: Record<string, string | null> = { page: null, ...customFilterParams(new URLSearchParams(window.location.search), custom) };
    for (const k of FILTER_KEYS) next[k] = draft[k].trim() || null;
    next.pod = pod.split(/[\s,]+/).filter(Boolean).join(',') || null;
    setQuery(next);
  };
  const clear = () => {
    const next: Record<string, string | null> = { page: null, ...customFilterParams(new URLSearchParams(window.location.search), {}) };
    for (const k of FILTER_KEYS) next[k] = null;
    setQuery(next);
  };

  return (
    <search>
      <form class="form shipments-filters" onSubmit={apply} noValidate>
        <div class="form-inline search-row">
          <TextField
            label="Search shipments"
            type="search"
            name="q"
            hint="Bill of lading, booking, container or reference number, whole or in part."
            value={draft.q}
            onValue={set('q')}
            class="search-field"
          />
          <div class="form-actions">
            <button type="submit" class="button-primary">
              Search
            </button>
            <button type="button" class="button-secondary" aria-expanded={open} aria-controls="shipment-filters" onClick={() => setOpen(!open)}>
              Filters{count ? ` (${count})` : ''}
            </button>
            {(filters.q || count > 0) && (
              <button type="button" class="button-quiet" onClick={clear}>
                Clear all
              </button>
            )}
          </div>
        </div>
        <fieldset id="shipment-filters" class="fieldset filters-grid" hidden={!open}>
          <legend>Filters</legend>
          <SelectField
            label="Carrier"
            name="carrier"
            value={draft.carrier}
            onValue={set('carrier')}
            options={[
              { value: '', label: 'Any carrier' },
              ...(draft.carrier && !lines.some((l) => l.attributes.scac === draft.carrier) ? [{ value: draft.carrier, label: draft.carrier }] : []),
              ...lines.map((l) => ({ value: l.attributes.scac, label: lineLabel(l) })),
            ]}
          />
          <TextField
            label="Port of discharge"
            name="pod"
            hint="UN/LOCODE, e.g. USLAX; several with commas."
            value={draft.pod}
            onValue={set('pod')}
            error={error.pod}
            autoComplete="off"
            spellcheck={false}
          />
          <SelectField
            label="Container status"
            name="status"
            value={draft.status}
            onValue={set('status')}
            options={[{ value: '', label: 'Any status' }, ...CONTAINER_STATUSES.map((s) => ({ value: s, label: containerStatusLabel(s) }))]}
          />
          <TextField
            label="Arriving on or after"
            type="date"
            name="since"
            value={draft.since}
            onValue={set('since')}
            hint="At the port of discharge, in its calendar."
          />
          <TextField label="Arriving on or before" type="date" name="until" value={draft.until} onValue={set('until')} error={error.until} />
          <SelectField
            label="Tracking"
            name="stopped"
            value={draft.stopped}
            onValue={set('stopped')}
            options={[
              { value: '', label: 'Tracked or stopped' },
              { value: 'false', label: 'Still tracked' },
              { value: 'true', label: 'Tracking stopped' },
            ]}
          />
          <CustomFieldFilter
            definitions={definitions}
            slug={cfSlug}
            onSlug={(slug) => {
              setCfSlug(slug);
              setCfDraft('');
            }}
            draft={cfDraft}
            onDraft={setCfDraft}
            error={error.custom}
          />
          <div class="form-actions filters-actions">
            <button type="submit" class="button-primary">
              Apply filters
            </button>
          </div>
        </fieldset>
      </form>
    </search>
  );
}

// The container's reference numbers (the account's own): shown as a list, edited as one per line and saved with
// PATCH /v2/containers/{id} (the list is replaced whole).
import { useState } from 'preact/hooks';
import { Notice } from '../../components/Alert';
import { FormErrors, SubmitButton } from '../../components/Field';
import { api } from '../../lib/api';
import { useForm } from '../../lib/hooks';
import type { Doc } from '../../lib/jsonapi';
import type { ContainerAttributes } from '../../lib/tracking';

export function RefNumbers({ id, value, onSaved }: { id: string; value: string[]; onSaved: (doc: Doc<ContainerAttributes>) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [saved, setSaved] = useState(false);
  const form = useForm();

  const start = () => {
    setText(value.join('\n'));
    setSaved(false);
    form.reset();
    setEditing(true);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    const refs = text
      .split(/[\n,]+/)
      .map((r) => r.trim())
      .filter(Boolean);
    const long = refs.find((r) => r.length > 255);
    if (long) return form.fail([], { ref_numbers: 'Each reference number has at most 255 characters.' });
    if (refs.length > 100) return form.fail([], { ref_numbers: 'At most 100 reference numbers.' });
    const doc = await form.run(
      () =>
        api.patch<Doc<ContainerAttributes>>(`/v2/containers/${encodeURIComponent(id)}`, {
          data: { type: 'container', id, attributes: { ref_numbers: refs } },
        }),
      ['ref_numbers'],
    );
    if (doc) {
      setEditing(false);
      setSaved(true);
      onSaved(doc);
    }
  };

  if (!editing) {
    return (
      <div class="refs">
        {value.length ? (
          <ul class="chips" aria-label="Reference numbers">
            {value.map((r) => (
              <li key={r} class="chip">
                {r}
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">No reference numbers yet. Add your PO, job or customer numbers to find this container by them.</p>
        )}
        <div class="button-row">
          <button type="button" class="button-secondary" onClick={start}>
            Edit reference numbers
          </button>
          {saved && (
            <Notice tone="success">
              <span>Reference numbers saved.</span>
            </Notice>
          )}
        </div>
      </div>
    );
  }
  return (
    <form class="form refs-form" onSubmit={save} noValidate>
      <FormErrors errors={form.errors} />
      <div class={`field${form.fields.ref_numbers ? ' field-invalid' : ''}`}>
        <label class="field-label" for="ref-numbers">
          Reference numbers
        </label>
        <p id="ref-numbers-hint" class="field-hint">
          One per line (or separated by commas). Saving replaces the whole list.
        </p>
        <textarea
          id="ref-numbers"
          rows={4}
          value={text}
          onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
          aria-describedby={`ref-numbers-hint${form.fields.ref_numbers ? ' ref-numbers-error' : ''}`}
          aria-invalid={form.fields.ref_numbers ? true : undefined}
        />
        {form.fields.ref_numbers && (
          <p id="ref-numbers-error" class="field-error">
            {form.fields.ref_numbers}
          </p>
        )}
      </div>
      <div class="form-actions">
        <SubmitButton busy={form.busy} busyLabel="Saving…">
          Save reference numbers
        </SubmitButton>
        <button type="button" class="button-secondary" onClick={() => setEditing(false)} disabled={form.busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

// The "Custom fields" of a container or a shipment: every definition of that entity type with the entity's value
// (its display value), each edited in place with a control fitting its type, saved with POST …/custom_fields (an
// upsert) and cleared with DELETE …/custom_fields/{api_slug}. A refused value shows the API's sentence beside the
// field. An account without definitions is told where to make them (the API; docs/custom-fields.md).
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../lib/api';
import {
  type CustomFieldAttributes,
  type Definition,
  type Draft,
  displayOf,
  draftOf,
  type EntityType,
  valueFromDraft,
} from '../lib/custom-fields';
import { clearValue, type EntityPath, loadDefinitions, loadValues, saveValue } from '../lib/custom-fields-api';
import { useLoad } from '../lib/hooks';
import { Async } from './Async';
import { CustomFieldInput } from './CustomFieldInput';
import { FormErrors, SubmitButton } from './Field';

const ENTITY: Record<EntityPath, { type: EntityType; noun: string }> = {
  containers: { type: 'Container', noun: 'container' },
  shipments: { type: 'Shipment', noun: 'shipment' },
};

export function CustomFields({ entity, id }: { entity: EntityPath; id: string }) {
  const { type, noun } = ENTITY[entity];
  const state = useLoad(
    async (signal) => {
      const [definitions, values] = await Promise.all([loadDefinitions(type, signal), loadValues(entity, id, signal)]);
      return { definitions, values };
    },
    [entity, id],
  );
  return (
    <Async state={state} label="Loading the custom fields…">
      {({ definitions, values }) =>
        definitions.length ? (
          <dl class="facts custom-fields">
            {definitions.map((def) => (
              <CustomFieldRow
                key={def.id}
                def={def}
                field={values.get(def.slug)}
                entity={entity}
                id={id}
                onChange={(field) => {
                  const next = new Map(values);
                  if (field) next.set(def.slug, field);
                  else next.delete(def.slug);
                  state.setData({ definitions, values: next });
                }}
              />
            ))}
          </dl>
        ) : (
          <NoDefinitions type={type} noun={noun} />
        )
      }
    </Async>
  );
}

/** Where to make definitions: the web app shows and edits values only. */
export function NoDefinitions({ type, noun }: { type: EntityType; noun: string }) {
  return (
    <p class="empty-state custom-fields-hint">
      No custom fields are defined for {noun}s yet. Define them with the API: <code>POST /v2/custom_field_definitions</code> with{' '}
      <code>entity_type</code> <code>{type}</code> (see “Custom fields” in Tidemark’s documentation, docs/custom-fields.md, and the{' '}
      <a href="/docs">API reference</a>); they show here, ready to fill in.
    </p>
  );
}

function CustomFieldRow({
  def,
  field,
  entity,
  id,
  onChange,
}: {
  def: Definition;
  field: CustomFieldAttributes | undefined;
  entity: EntityPath;
  id: string;
  onChange: (field: CustomFieldAttributes | undefined) => void;
}) {
  const controlId = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Draft>('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [general, setGeneral] = useState<string[]>([]);
  const [busy, setBusy] = useState<'save' | 'clear' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const input = useRef<HTMLInputElement | HTMLSelectElement>(null);
  const edit = useRef<HTMLButtonElement>(null);
  const shown = displayOf(field);

  // Focus follows the work: into the control when editing starts or a value is refused, back to Edit after.
  const [focus, setFocus] = useState<'input' | 'edit' | null>(null);
  useEffect(() => {
    if (focus === 'input') input.current?.focus();
    if (focus === 'edit') edit.current?.focus();
    if (focus) setFocus(null);
  }, [focus, editing, error]);

  const start = () => {
    setDraft(draftOf(def, field?.value));
    setError(undefined);
    setGeneral([]);
    setDone(null);
    setEditing(true);
    setFocus('input');
  };
  const stop = (message: string | null) => {
    setEditing(false);
    setDone(message);
    setFocus('edit');
  };
  const failed = (err: unknown) => {
    // A refused value: the API's sentences beside the field (they are all about the value here).
    if (err instanceof ApiError && err.status === 422) {
      const mine = err.problems.filter((p) => !p.parameter);
      setError(mine.map((p) => p.message).join(' ') || messageOf(err));
      setGeneral(err.problems.filter((p) => p.parameter).map((p) => p.message));
    } else {
      setGeneral([messageOf(err)]);
    }
    setFocus('input');
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setGeneral([]);
    const converted = valueFromDraft(def, draft);
    if (!converted.ok) {
      setError(converted.message);
      setFocus('input');
      return;
    }
    setError(undefined);
    setBusy('save');
    try {
      const saved = await saveValue(entity, id, def.slug, converted.value);
      onChange(saved);
      stop(`${def.name} saved.`);
    } catch (err) {
      failed(err);
    } finally {
      setBusy(null);
    }
  };
  const clear = async () => {
    setGeneral([]);
    setError(undefined);
    setBusy('clear');
    try {
      await clearValue(entity, id, def.slug);
      onChange(undefined);
      stop(`${def.name} cleared.`);
    } catch (err) {
      // Already gone (another tab, another user): what the page shows is what is stored.
      if (err instanceof ApiError && err.status === 404) {
        onChange(undefined);
        stop(`${def.name} cleared.`);
      } else failed(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div class="fact custom-field" data-slug={def.slug}>
      <dt>{def.name}</dt>
      <dd>
        {editing ? (
          <form
            class="form"
            onSubmit={save}
            noValidate
            aria-label={`Edit ${def.name}`}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && !busy) {
                e.preventDefault();
                stop(null);
              }
            }}
          >
            <FormErrors errors={general} />
            <CustomFieldInput def={def} id={controlId} draft={draft} onDraft={setDraft} error={error} inputRef={input} hideLabel />
            <div class="form-actions">
              <SubmitButton busy={busy === 'save'} busyLabel="Saving…" disabled={busy !== null} class="button-primary button-small">
                Save<span class="visually-hidden"> {def.name}</span>
              </SubmitButton>
              {field && (
                <button
                  type="button"
                  class="button-secondary button-small"
                  onClick={clear}
                  disabled={busy !== null}
                  aria-busy={busy === 'clear' ? true : undefined}
                >
                  {busy === 'clear' ? 'Clearing…' : 'Clear'}
                  <span class="visually-hidden"> {def.name}</span>
                </button>
              )}
              <button type="button" class="button-quiet button-small" onClick={() => stop(null)} disabled={busy !== null}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <div class="row-actions">
            <span class="custom-field-value">{shown ?? <span class="muted">Not set</span>}</span>
            <button type="button" class="button-quiet button-small" onClick={start} ref={edit}>
              {field ? 'Edit' : 'Set'}
              <span class="visually-hidden"> {def.name}</span>
            </button>
            {done && (
              <span class="success-text small" role="status">
                {done}
              </span>
            )}
          </div>
        )}
      </dd>
    </div>
  );
}

// One custom field's control, fitting its data type: a text, number, date or datetime-local (UTC) input, Yes/No,
// a select of the options (`enum`), checkboxes of the options (`enum_multi`; a filter picks one), a reference's id
// with its type fixed. Labelled, with the hint and the error tied to it (`aria-describedby`, `aria-invalid`).
import type { JSX, Ref } from 'preact';
import { type Definition, type Draft, inputKindOf, typeHint } from '../lib/custom-fields';

interface Props {
  def: Definition;
  /** The control's id (its label's `for`); hint and error ids are derived from it. */
  id: string;
  draft: Draft;
  onDraft: (draft: Draft) => void;
  error?: string | undefined;
  /** `filter`: one value to compare with (an `enum_multi` filter picks the one option the values contain). */
  mode?: 'edit' | 'filter';
  /** The label; the definition's name unless given. */
  label?: string;
  hideLabel?: boolean;
  inputRef?: Ref<HTMLInputElement | HTMLSelectElement>;
}

export function CustomFieldInput({ def, id, draft, onDraft, error, mode = 'edit', label, hideLabel, inputRef }: Props) {
  const filterMulti = mode === 'filter' && def.dataType === 'enum_multi';
  const kind = filterMulti ? 'select' : inputKindOf(def.dataType);
  const hintText = [mode === 'edit' ? def.description : null, filterMulti ? 'Lists those whose values include this option.' : typeHint(def)]
    .filter(Boolean)
    .join(' ');
  const described = [hintText ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const text = Array.isArray(draft) ? (draft[0] ?? '') : draft;
  const name = label ?? def.name;
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described,
  } as const;
  const hint = hintText ? (
    <p id={`${id}-hint`} class="field-hint">
      {hintText}
    </p>
  ) : null;
  const errorLine = error ? (
    <p id={`${id}-error`} class="field-error">
      {error}
    </p>
  ) : null;

  if (kind === 'multi-select') {
    const chosen = new Set(Array.isArray(draft) ? draft : draft ? [draft] : []);
    const known = new Set(def.options.map((o) => o.value));
    // In the options' order; a stored value whose option is gone is kept unless the user saves without it.
    const toggle = (value: string, on: boolean) =>
      onDraft([
        ...def.options.map((o) => o.value).filter((v) => (v === value ? on : chosen.has(v))),
        ...[...chosen].filter((v) => !known.has(v)),
      ]);
    return (
      <fieldset class={`fieldset${error ? ' field-invalid' : ''}`} aria-describedby={described} id={id}>
        <legend class={hideLabel ? 'visually-hidden' : undefined}>{name}</legend>
        {hint}
        {def.options.length ? (
          def.options.map((o, i) => (
            <div class="checkbox" key={o.value}>
              <input
                id={`${id}-${i}`}
                type="checkbox"
                checked={chosen.has(o.value)}
                onChange={(e) => toggle(o.value, (e.currentTarget as HTMLInputElement).checked)}
                ref={i === 0 ? (inputRef as Ref<HTMLInputElement>) : undefined}
              />
              <label for={`${id}-${i}`}>{o.label}</label>
            </div>
          ))
        ) : (
          <p class="muted">This field has no options yet.</p>
        )}
        {errorLine}
      </fieldset>
    );
  }

  let control: JSX.Element;
  if (kind === 'select' || kind === 'yes-no') {
    const options =
      kind === 'yes-no'
        ? [
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]
        : def.options.map((o) => ({ value: o.value, label: o.label }));
    // A value the options no longer hold (an option removed since) stays choosable, so it is not lost silently.
    const known = !text || options.some((o) => o.value === text);
    control = (
      <select
        {...common}
        value={text}
        onInput={(e) => onDraft((e.currentTarget as HTMLSelectElement).value)}
        ref={inputRef as Ref<HTMLSelectElement>}
      >
        <option value="">Choose…</option>
        {!known && <option value={text}>{text}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else {
    const type = kind === 'number' ? 'number' : kind === 'date' ? 'date' : kind === 'datetime-local' ? 'datetime-local' : 'text';
    control = (
      <input
        {...common}
        type={type as 'text'}
        value={text}
        step={kind === 'number' ? 'any' : undefined}
        inputMode={kind === 'number' ? 'decimal' : undefined}
        autoComplete="off"
        spellcheck={kind === 'text' ? undefined : false}
        onInput={(e) => onDraft((e.currentTarget as HTMLInputElement).value)}
        ref={inputRef as Ref<HTMLInputElement>}
      />
    );
  }
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id} class={hideLabel ? 'visually-hidden' : 'field-label'}>
        {name}
        {kind === 'datetime-local' && <span class="muted"> (UTC)</span>}
      </label>
      {kind === 'reference' && (
        <p class="static-value small">
          Type: <code>{def.referenceType ?? 'record'}</code>
        </p>
      )}
      {hint}
      {control}
      {errorLine}
    </div>
  );
}

// Form controls with their label, an optional hint, and an inline error tied to the control
// (`aria-invalid`, `aria-describedby`), plus the error summary and the submit button of a form.
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { ErrorMessage } from './Alert';

interface Common {
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | undefined;
  /** Hides the label visually (still read by screen readers); for controls whose context says it all. */
  hideLabel?: boolean;
  class?: string;
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function Wrapper({ id, label, hint, error, hideLabel, class: cls, children }: Common & { id: string; children: ComponentChildren }) {
  return (
    <div class={`field${error ? ' field-invalid' : ''}${cls ? ` ${cls}` : ''}`}>
      <label for={id} class={hideLabel ? 'visually-hidden' : 'field-label'}>
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} class="field-hint">
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

interface InputProps extends Common {
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'url' | 'search' | 'number' | 'date' | 'datetime-local' | 'tel';
  name?: string;
  id?: string;
  autoComplete?: string;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  inputMode?: 'text' | 'email' | 'url' | 'search' | 'numeric' | 'decimal' | 'tel' | 'none';
  minLength?: number;
  maxLength?: number;
  spellcheck?: boolean;
}

export function TextField({ label, hint, error, hideLabel, class: cls, value, onValue, id: givenId, type = 'text', ...input }: InputProps) {
  const auto = useId();
  const id = givenId || auto;
  return (
    <Wrapper id={id} label={label} hint={hint} error={error} hideLabel={hideLabel} class={cls}>
      <input
        id={id}
        // Preact's input types are a union per `type`; every type this component takes accepts these props.
        type={type as 'text'}
        {...input}
        value={value}
        onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
    </Wrapper>
  );
}

export interface Option {
  value: string;
  label: string;
}

interface SelectProps extends Common {
  value: string;
  onValue: (value: string) => void;
  options: Option[];
  name?: string;
  required?: boolean;
  disabled?: boolean;
}

export function SelectField({ label, hint, error, hideLabel, class: cls, value, onValue, options, ...select }: SelectProps) {
  const id = useId();
  return (
    <Wrapper id={id} label={label} hint={hint} error={error} hideLabel={hideLabel} class={cls}>
      <select
        id={id}
        {...select}
        value={value}
        onInput={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Wrapper>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
  hint,
  disabled,
}: {
  label: ComponentChildren;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ComponentChildren;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div class="checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <label for={id}>
        {label}
        {hint && (
          <span id={`${id}-hint`} class="field-hint">
            {hint}
          </span>
        )}
      </label>
    </div>
  );
}

/** A group of related controls under a legend (checkbox lists, header rows). */
export function FieldSet({
  legend,
  hint,
  error,
  children,
  class: cls,
}: {
  legend: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | undefined;
  children: ComponentChildren;
  class?: string;
}) {
  const id = useId();
  return (
    <fieldset class={`fieldset${error ? ' field-invalid' : ''}${cls ? ` ${cls}` : ''}`} aria-describedby={describedBy(id, hint, error)}>
      <legend>{legend}</legend>
      {hint && (
        <p id={`${id}-hint`} class="field-hint">
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The summary of a form's errors that no control shows. */
export function FormErrors({ errors }: { errors: string[] }) {
  return <ErrorMessage messages={errors} />;
}

export function SubmitButton({
  busy,
  children,
  busyLabel,
  class: cls,
  disabled,
}: {
  busy: boolean;
  children: ComponentChildren;
  busyLabel?: string;
  class?: string;
  disabled?: boolean;
}) {
  return (
    <button type="submit" class={cls ?? 'button-primary'} disabled={busy || disabled} aria-busy={busy ? true : undefined}>
      {busy ? (busyLabel ?? 'Working…') : children}
    </button>
  );
}

// Modal dialogs on the native <dialog> (focus kept inside, Escape closes, focus returns to the opener) and a
// promise-based confirmation: `const confirm = useConfirm(); if (await confirm({...})) …`.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';

export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: ComponentChildren;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      const opener = document.activeElement as HTMLElement | null;
      d.showModal();
      return () => {
        if (d.open) d.close();
        opener?.focus?.();
      };
    }
    return undefined;
  }, [open]);
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId} class="dialog-title">
            {title}
          </h2>
          {children}
        </>
      )}
    </dialog>
  );
}

export interface ConfirmOptions {
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  /** Red button for destructive actions (revoke, delete, remove). */
  danger?: boolean;
}

/** Returns `[confirm, element]`: render the element once, call `confirm(options)` to ask. */
export function useConfirm(): [(o: ConfirmOptions) => Promise<boolean>, ComponentChildren] {
  const [pending, setPending] = useState<(ConfirmOptions & { resolve: (ok: boolean) => void }) | null>(null);
  const confirm = useCallback(
    (o: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        setPending({ ...o, resolve });
      }),
    [],
  );
  const answer = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  const element = (
    <Dialog open={pending !== null} title={pending?.title ?? ''} onClose={() => answer(false)}>
      {pending && (
        <>
          <div class="dialog-body">{pending.message}</div>
          <div class="dialog-actions">
            <button type="button" class="button-secondary" onClick={() => answer(false)}>
              Cancel
            </button>
            <button type="button" class={pending.danger ? 'button-danger' : 'button-primary'} onClick={() => answer(true)}>
              {pending.confirmLabel}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
  return [confirm, element];
}

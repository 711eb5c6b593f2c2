import { type ReactNode, useEffect, useRef } from "react";
import { useFormAction } from "../use-form-action.ts";

interface Props {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Runs on confirm; the dialog stays open showing the error if it throws. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/**
 * Modal confirmation for destructive actions, on the native `<dialog>`: focus moves to Cancel (the first
 * button), Tab stays inside, Esc closes.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const { busy, error, setError, run } = useFormAction();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setError(null);
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open, setError]);

  const confirm = () =>
    run(async () => {
      await onConfirm();
      onClose();
    });

  return (
    <dialog ref={ref} className="confirm" aria-labelledby="confirm-title" onClose={onClose}>
      <h2 id="confirm-title">{title}</h2>
      <div className="confirm-body">{children}</div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={confirm} disabled={busy}>
          {busy ? "Working…" : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

import { useCallback, useState } from "react";

/** What a form needs to run its action: whether it is running, and the error to show. */
export interface FormAction {
  busy: boolean;
  error: string | null;
  /** Shows a message (a check before running, for instance) or clears it (null). */
  setError: (message: string | null) => void;
  /**
   * Runs `action` with the form busy and its error cleared; a failure becomes the form's error (the
   * thrown error's message, or what `describeError` makes of it).
   */
  run: (action: () => Promise<void>, describeError?: (err: unknown) => string) => Promise<void>;
}

const errorMessage = (err: unknown) => (err as Error).message;

/** The busy / error / try / finally of a form submit (or a dialog's confirm), in one place. */
export function useFormAction(): FormAction {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (action: () => Promise<void>, describeError = errorMessage) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}

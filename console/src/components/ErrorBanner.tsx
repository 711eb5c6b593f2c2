interface Props {
  error: Error | string;
  context?: string;
  onRetry?: () => void;
}

/** An error the user can read and act on (the server's message says what to do). */
export function ErrorBanner({ error, context, onRetry }: Props) {
  const message = typeof error === "string" ? error : error.message;
  return (
    <div className="error" role="alert">
      <span>
        {context ? <strong>{context}: </strong> : null}
        {message}
      </span>
      {onRetry ? (
        <button type="button" className="secondary small" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

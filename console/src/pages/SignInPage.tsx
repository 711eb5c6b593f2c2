import { type FormEvent, useEffect, useRef, useState } from "react";
import { ApiClient } from "../api-client.ts";
import { ErrorBanner } from "../components/ErrorBanner.tsx";
import { useFormAction } from "../use-form-action.ts";

interface Props {
  message: string | null;
  onSignedIn: (token: string) => void;
}

/** Sign-in with the platform's admin token, checked against `GET /api/session` before it is kept. */
export function SignInPage({ message, onSignedIn }: Props) {
  const [token, setToken] = useState("");
  const { busy, error, setError, run } = useFormAction();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = token.trim();
    if (!trimmed) return setError("Enter the admin token.");
    await run(
      async () => {
        await new ApiClient(trimmed).checkSession();
        onSignedIn(trimmed);
      },
      (err) =>
        (err as { status?: number }).status === 401
          ? "That admin token is not valid. It is in <dataDir>/admin-token on the platform host, or TRELLIS_ADMIN_TOKEN."
          : (err as Error).message,
    );
  };

  return (
    <main className="signin">
      <form onSubmit={submit} className="card" aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to Trellis</h1>
        {message ? (
          <p className="notice" role="status">
            {message}
          </p>
        ) : null}
        <label htmlFor="admin-token">Admin token</label>
        <input
          id="admin-token"
          type="password"
          autoComplete="current-password"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          ref={input}
        />
        <p className="hint">
          Printed when the platform first starts and stored in <code>&lt;dataDir&gt;/admin-token</code>.
        </p>
        {error ? <ErrorBanner error={error} /> : null}
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}

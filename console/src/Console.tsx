import { useCallback, useMemo, useState } from "react";
import { ApiClient } from "./api-client.ts";
import { ApiContext } from "./api-context.ts";
import { useHashRoute } from "./hash-route.ts";
import { AppPage } from "./pages/AppPage.tsx";
import { AppsPage } from "./pages/AppsPage.tsx";
import { SignInPage } from "./pages/SignInPage.tsx";
import { clearToken, loadToken, saveToken } from "./session.ts";

/** Root: the sign-in gate, the header, and the page for the current hash route. */
export function Console() {
  const [token, setToken] = useState(loadToken);
  const [signInMessage, setSignInMessage] = useState<string | null>(null);
  const route = useHashRoute();

  const signOut = useCallback((message: string | null) => {
    clearToken();
    setToken(null);
    setSignInMessage(message);
  }, []);

  const api = useMemo(
    () =>
      token
        ? new ApiClient(token, (message) =>
            signOut(`Your session is no longer valid (${message}). Sign in again.`),
          )
        : null,
    [token, signOut],
  );

  if (!api) {
    return (
      <SignInPage
        message={signInMessage}
        onSignedIn={(t) => {
          saveToken(t);
          setSignInMessage(null);
          setToken(t);
        }}
      />
    );
  }

  return (
    <ApiContext.Provider value={api}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <a href="#/apps" className="brand">
          Trellis
        </a>
        <nav aria-label="Main">
          <a href="#/apps">Apps</a>
        </nav>
        <button type="button" className="secondary small" onClick={() => signOut(null)}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {route.view === "app" ? <AppPage key={route.app} name={route.app} tab={route.tab} /> : <AppsPage />}
      </main>
    </ApiContext.Provider>
  );
}

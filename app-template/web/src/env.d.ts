/** The variables Vite exposes to the page (only VITE_-prefixed ones are, from web/.env files). */
interface ImportMetaEnv {
  /** An API key for the app's endpoint, if it requires one. Not needed with `trellis dev`. */
  readonly VITE_TRELLIS_API_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

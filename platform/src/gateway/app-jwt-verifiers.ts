import { createJwtVerifier, JWT_ENV, type JwtVerifier, type OutboundFetch } from "@trellis/runtime";
import type { MetadataStore } from "../store/metadata-store.ts";

/** How stale an app's JWT settings may be: env var changes (on any node) are seen within this. */
const SETTINGS_TTL_MS = 1_000;
const MAX_APPS = 10_000;

interface Entry {
  /** The JWT env vars the verifier was made from: a verifier (and its cached key sets) lives while they do. */
  settings: string;
  verifier: JwtVerifier;
  checkedAt: number;
}

/**
 * Each app's verifier of its users' JWTs, made from its env vars (`TRELLIS_JWT_*`, see the runtime's
 * jwt-settings.ts). The env vars are re-read at most every SETTINGS_TTL_MS; the verifier, and the JWKS it
 * fetched, is kept until they change. Key sets are fetched under the platform's egress policy (`fetch`).
 */
export class AppJwtVerifiers {
  private readonly entries = new Map<string, Entry>();
  private readonly reading = new Map<string, Promise<JwtVerifier>>();

  constructor(
    private readonly store: MetadataStore,
    private readonly fetch: OutboundFetch,
  ) {}

  forApp(app: string): Promise<JwtVerifier> {
    const entry = this.entries.get(app);
    if (entry && Date.now() - entry.checkedAt < SETTINGS_TTL_MS) return Promise.resolve(entry.verifier);
    let reading = this.reading.get(app);
    if (!reading) {
      reading = this.refresh(app, entry).finally(() => this.reading.delete(app));
      this.reading.set(app, reading);
    }
    return reading;
  }

  private async refresh(app: string, entry: Entry | undefined): Promise<JwtVerifier> {
    const env = await this.store.envFor(app);
    const jwtEnv = Object.fromEntries(Object.values(JWT_ENV).map((name) => [name, env[name]]));
    const settings = JSON.stringify(jwtEnv);
    const verifier =
      entry?.settings === settings ? entry.verifier : createJwtVerifier(jwtEnv, { fetch: this.fetch });
    if (!entry && this.entries.size >= MAX_APPS) this.entries.clear();
    this.entries.set(app, { settings, verifier, checkedAt: Date.now() });
    return verifier;
  }
}

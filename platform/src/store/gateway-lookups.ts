import { hashToken } from "../secrets/tokens.ts";
import type { ApiKeyRecord, ApiKeysTable } from "./api-keys-table.ts";
import type { AppRecord, AppsTable } from "./apps-table.ts";
import { LookupCache } from "./lookup-cache.ts";

/** How stale a gateway lookup may be on a node that did not make the change itself. */
const LOOKUP_TTL_MS = 1_000;

/**
 * The gateway's per-request reads (the app record, the presented API key), cached for LOOKUP_TTL_MS. The
 * store invalidates an app's entries on this node's writes to it.
 */
export class GatewayLookups {
  private readonly cache = new LookupCache<unknown>(LOOKUP_TTL_MS);

  constructor(
    private readonly apps: AppsTable,
    private readonly apiKeys: ApiKeysTable,
  ) {}

  /** `AppsTable.get`, cached. */
  app(name: string): Promise<AppRecord | undefined> {
    return this.cache.get(name, `app:${name}`, () => this.apps.get(name)) as Promise<AppRecord | undefined>;
  }

  /** `ApiKeysTable.findActive`, cached by the hash of the presented key. */
  activeApiKey(app: string, presented: string): Promise<ApiKeyRecord | undefined> {
    const hash = Buffer.from(hashToken(presented)).toString("base64");
    return this.cache.get(app, `key:${app}:${hash}`, () =>
      this.apiKeys.findActive(app, presented),
    ) as Promise<ApiKeyRecord | undefined>;
  }

  /** Forgets the app's entries: it, one of its keys or its live deployment changed. */
  invalidate(app: string): void {
    this.cache.invalidate(app);
  }
}

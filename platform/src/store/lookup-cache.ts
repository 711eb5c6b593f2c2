/**
 * A short-lived read-through cache for the gateway's per-request lookups (the app record and the
 * presented API key). Entries live `ttlMs` (so another platform node's revocation or deploy is seen
 * within that), and this node's own writes invalidate the app's entries at once.
 */
export class LookupCache<T> {
  private readonly entries = new Map<string, { value: T; at: number; app: string }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(app: string, key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    const now = Date.now();
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = await load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, at: now, app });
    return value;
  }

  invalidate(app: string): void {
    for (const [key, entry] of this.entries) if (entry.app === app) this.entries.delete(key);
  }
}

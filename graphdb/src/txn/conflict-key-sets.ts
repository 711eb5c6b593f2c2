/**
 * The conflict keys of several commits, to test a transaction's keys against all of them. A large commit's
 * set is kept as it is (copying 100k keys would hold the thread for tens of milliseconds); small ones are
 * merged into one set, so many small commits cost one lookup a key, not one set each.
 */
export class ConflictKeySets {
  private readonly small = new Set<number>();
  private readonly large: ReadonlySet<number>[] = [];

  /** Adds a commit's keys; a large set is kept, not copied, so it must not change afterwards. */
  add(keys: ReadonlySet<number>): void {
    if (keys.size >= KEPT_FROM) this.large.push(keys);
    else for (const k of keys) this.small.add(k);
  }

  get empty(): boolean {
    return this.small.size === 0 && this.large.length === 0;
  }

  /** Whether any of `keys` is among them. */
  meets(keys: ReadonlySet<number>): boolean {
    if (this.small.size > 0 && intersects(keys, this.small)) return true;
    for (const set of this.large) if (intersects(keys, set)) return true;
    return false;
  }
}

/** Sets of at least this many keys are kept rather than copied. */
export const KEPT_FROM = 1024;

/** Whether two sets share a member, iterating the smaller. */
export function intersects(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const k of small) if (large.has(k)) return true;
  return false;
}

import { keyString, latin1Bytes } from "../store/keys.ts";
import { KeyDelta } from "./key-delta.ts";
import type { SharedSnapshot } from "./snapshot-manager.ts";

/** `committing`: passed its conflict check, queued for the next group write (CommitQueue). */
export type TxnState = "open" | "committing" | "committed" | "aborted";

/**
 * A client-held transaction: its snapshot (at start_ts), its pending writes as per-key deltas, and the
 * conflict keys and predicates its mutations touched. It belongs to the namespace it was begun in: only
 * requests of that namespace may continue, commit or abort it.
 */
export class Transaction {
  state: TxnState = "open";
  readonly deltas = new Map<string, KeyDelta>();
  /** Conflict key fingerprints (rendered in base 36 on the wire). */
  readonly conflictKeys = new Set<number>();
  readonly preds = new Set<string>();
  lastActive = Date.now();
  /** Mutations of it being applied now (they give the event loop back between chunks): not committable. */
  busy = 0;

  constructor(
    readonly startTs: number,
    readonly snapshot: SharedSnapshot,
    /** Begun for a read-only or best-effort query (such transactions do not hold back conflict purges). */
    readonly readOnly: boolean,
    readonly namespace: number,
  ) {}

  delta(key: Uint8Array, list: boolean): KeyDelta {
    return this.deltaAt(keyString(key), list, key);
  }

  /** `delta` for a key given as its latin1 string (`keyString`); the key bytes are built only for a new key. */
  deltaAt(ks: string, list: boolean, key?: Uint8Array): KeyDelta {
    let d = this.deltas.get(ks);
    if (d === undefined) {
      d = new KeyDelta(key ?? latin1Bytes(ks), list);
      this.deltas.set(ks, d);
    }
    return d;
  }

  get hasWrites(): boolean {
    return this.deltas.size > 0;
  }
}

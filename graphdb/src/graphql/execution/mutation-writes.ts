/**
 * The writes of one root mutation, gathered while its input is rewritten and applied at the end in its
 * transaction: JSON delete objects first (stale edges, removed values), then JSON set objects, one object
 * per subject, new nodes named by blank labels `_:<Type>_<n>`.
 */
import type { DqlTransaction } from "./dql-transaction.ts";

type JsonObject = Record<string, unknown>;

/** `{"uid": "0x1"}`: the JSON value of an edge to a node. */
export const uidValue = (uid: string): JsonObject => ({ uid });

export class MutationWrites {
  private readonly sets = new Map<string, JsonObject>();
  private readonly deletes = new Map<string, JsonObject>();
  private blanks = 0;
  /** The blank labels of the nodes this mutation creates, in creation order. */
  readonly created: string[] = [];

  /** A new node's blank label (`_:Author_1`), counted as created. */
  blank(typeName: string): string {
    this.blanks += 1;
    const label = `_:${typeName}_${this.blanks}`;
    this.created.push(label);
    return label;
  }

  /** Sets `subject.predicate` to `value`, or adds `value` to it when the predicate is a list. */
  set(subject: string, predicate: string, value: unknown, list: boolean): void {
    add(this.sets, subject, predicate, value, list);
  }

  /** Deletes `value` from `subject.predicate`; `null` deletes all of its values. */
  delete(subject: string, predicate: string, value: unknown): void {
    const obj = this.deletes.get(subject);
    if (value === null) {
      add(this.deletes, subject, predicate, null, false);
      return;
    }
    if (obj !== undefined && obj[predicate] === null) return;
    add(this.deletes, subject, predicate, value, true);
  }

  get empty(): boolean {
    return this.sets.size === 0 && this.deletes.size === 0;
  }

  /** Applies the writes in `tx`; returns the uid each blank label got. */
  async apply(tx: DqlTransaction): Promise<Map<string, string>> {
    const uids = new Map<string, string>();
    if (this.deletes.size > 0) await tx.mutate([{ deleteJson: [...this.deletes.values()] }]);
    if (this.sets.size > 0) {
      const res = await tx.mutate([{ setJson: [...this.sets.values()] }]);
      for (const [label, uid] of Object.entries(res.uids)) uids.set(`_:${label}`, uid);
    }
    return uids;
  }
}

function add(
  objects: Map<string, JsonObject>,
  subject: string,
  predicate: string,
  value: unknown,
  list: boolean,
): void {
  let obj = objects.get(subject);
  if (obj === undefined) {
    obj = { uid: subject };
    objects.set(subject, obj);
  }
  if (!list) {
    obj[predicate] = value;
    return;
  }
  const values = Array.isArray(obj[predicate]) ? (obj[predicate] as unknown[]) : [];
  const text = JSON.stringify(value);
  if (!values.some((v) => JSON.stringify(v) === text)) values.push(value);
  obj[predicate] = values;
}

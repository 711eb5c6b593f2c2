import { checkIndexKeyLength, DgraphError } from "../core/errors.ts";
import type { Facet } from "../core/facet.ts";
import type { ValuePosting } from "../core/graph-reader.ts";
import type { ScalarType, TypedValue } from "../core/scalar.ts";
import { blankPredicate, type PredicateSchema } from "../core/schema-types.ts";
import { containsUid } from "../posting/uid-list.ts";
import type { SchemaState } from "../schema/schema-state.ts";
import { fingerprint, valueFingerprint } from "../txn/conflict-key.ts";
import type { Transaction } from "../txn/transaction.ts";
import type { TxnReader } from "../txn/txn-reader.ts";
import type { PredicateGuard } from "./reserved-predicates.ts";

/** Value services the applier needs (tokenizers and type conversion), injected by the engine. */
export interface ValueServices {
  /** Index tokens of a value (already of the predicate's type) for one tokenizer. */
  tokens(tokenizer: string, value: TypedValue, lang: string): Uint8Array[];
  /** The same tokens as latin1 strings (one char per byte), as index maps key them. */
  tokenKeys(tokenizer: string, value: TypedValue, lang: string): string[];
  /** Converts an input value to the predicate's schema type, or throws DgraphError. */
  convert(value: TypedValue, to: ScalarType, predicate: string): TypedValue;
  /** Hashes a password for storage. */
  hashPassword(plain: string): string;
}

/** An edge whose subject (and node object) are resolved to uids. */
export interface ResolvedEdge {
  subject: number;
  predicate: string;
  /** uid object, literal, or star. */
  object:
    | { kind: "uid"; uid: number }
    | { kind: "value"; value: TypedValue; lang: string }
    | { kind: "star" };
  facets: Facet[];
  list: boolean;
}

/**
 * Turns resolved edges into a transaction's deltas — data, index, reverse and count keys — and its conflict
 * keys, following Dgraph's rules (posting/index.go, GetConflictKey). Reads go through the transaction's
 * own view, so several mutations in one transaction compose; keys are the reader's namespace's, and
 * `schema` must be that namespace's schema.
 */
export class MutationApplier {
  constructor(
    private readonly txn: Transaction,
    private readonly reader: TxnReader,
    private readonly schema: SchemaState,
    private readonly services: ValueServices,
    /** Called when a predicate is created by auto-schema (the engine persists it). */
    private readonly onNewPredicate: (p: PredicateSchema) => void,
    /** Refuses predicates this mutation may not write (reserved ones), `S * *` expansions included. */
    private readonly guard?: PredicateGuard,
  ) {}

  /** Applies deletes, then sets, as Dgraph does. */
  apply(del: ResolvedEdge[], set: ResolvedEdge[]): void {
    for (const e of del) this.deleteEdge(e);
    for (const e of set) this.setEdge(e);
  }

  private schemaFor(e: ResolvedEdge): PredicateSchema {
    const found = this.schema.predicate(e.predicate);
    if (found !== undefined) return found;
    let type: ScalarType;
    let list = e.list;
    if (e.object.kind === "uid") type = "uid";
    else if (e.object.kind === "value")
      type = e.object.value.type === "uid" ? "default" : e.object.value.type;
    else throw new DgraphError(`Predicate ${e.predicate} has no schema`);
    if (type === "password") list = false;
    const p = blankPredicate(e.predicate, type, list);
    if (e.object.kind === "value" && e.object.lang !== "" && type === "string") p.lang = true;
    this.schema.setPredicate(p);
    this.onNewPredicate(p);
    return p;
  }

  private conflict(key: Uint8Array, s: PredicateSchema, valueId: number): void {
    if (s.noconflict) return;
    this.txn.conflictKeys.add(fingerprint(key, s.upsert ? 0 : valueId));
  }

  private setEdge(e: ResolvedEdge): void {
    if (e.object.kind === "star") throw new DgraphError(`Cannot use star in set n-quad: ${describe(e)}`);
    this.guard?.(e.predicate);
    const s = this.schemaFor(e);
    this.txn.preds.add(e.predicate);
    const key = this.reader.keys.dataKey(e.predicate, e.subject);
    if (e.object.kind === "uid") {
      if (s.type !== "uid") {
        throw new DgraphError(
          `Input for predicate "${e.predicate}" of type scalar is uid. Edge: ${describe(e)}`,
        );
      }
      const obj = e.object.uid;
      const before = this.reader.record(key).uids;
      const d = this.txn.delta(key, s.list);
      if (!s.list) {
        for (const old of before) {
          if (old === obj) continue;
          d.removeUid(old);
          this.reverseEdge(s, e.subject, old, false);
        }
      }
      const isNew = !containsUid(before, obj);
      d.addUid(obj, e.facets);
      if (isNew) this.reverseEdge(s, e.subject, obj, true);
      this.conflict(key, s, s.list ? obj : 0);
      if (s.count) this.recount(s, e.subject, before.length);
      return;
    }
    if (s.type === "uid") {
      throw new DgraphError(
        `Input for predicate "${e.predicate}" of type uid is scalar. Edge: ${describe(e)}`,
      );
    }
    const lang = e.object.lang;
    if (lang !== "" && !s.lang) {
      throw new DgraphError(
        `Attr: [${e.predicate}] should have @lang directive in schema to mutate edge: [${describe(e)}]`,
      );
    }
    let value = this.services.convert(e.object.value, s.type, e.predicate);
    if (s.type === "password")
      value = { type: "password", value: this.services.hashPassword(String(value.value)) };
    const before = this.reader.record(key).values;
    const d = this.txn.delta(key, s.list);
    const posting: ValuePosting = { value, lang };
    if (e.facets.length > 0) posting.facets = e.facets;
    const exists = before.some((v) => v.lang === lang && sameValue(v.value, value));
    // Change the data first: index removals keep the tokens the remaining values still produce.
    d.setValue(posting);
    if (!s.list) {
      for (const old of before) {
        if (old.lang === lang && !sameValue(old.value, value)) this.indexValue(s, e.subject, old, false);
      }
    }
    if (!exists) this.indexValue(s, e.subject, posting, true);
    this.conflict(key, s, s.list ? valueFingerprint(String(value.value)) : 0);
    if (s.count && s.list) this.recount(s, e.subject, before.length);
  }

  private deleteEdge(e: ResolvedEdge): void {
    if (e.predicate === "*") {
      this.deleteNode(e.subject);
      return;
    }
    this.guard?.(e.predicate);
    const s = this.schema.predicate(e.predicate);
    if (s === undefined) return; // nothing stored under an unknown predicate
    this.txn.preds.add(e.predicate);
    const key = this.reader.keys.dataKey(e.predicate, e.subject);
    const rec = this.reader.record(key);
    if (e.object.kind === "star") {
      if (rec.uids.length === 0 && rec.values.length === 0) return;
      const d = this.txn.delta(key, s.list);
      const before = rec.uids.length + rec.values.length;
      d.clearAll();
      for (const o of rec.uids) this.reverseEdge(s, e.subject, o, false);
      for (const v of rec.values) this.indexValue(s, e.subject, v, false);
      this.conflict(key, s, 0);
      if (s.count) this.recount(s, e.subject, before);
      return;
    }
    if (e.object.kind === "uid") {
      const obj = e.object.uid;
      if (!containsUid(rec.uids, obj)) return;
      this.txn.delta(key, s.list).removeUid(obj);
      this.reverseEdge(s, e.subject, obj, false);
      this.conflict(key, s, s.list ? obj : 0);
      if (s.count) this.recount(s, e.subject, rec.uids.length);
      return;
    }
    if (s.type === "uid") return;
    const value = this.services.convert(e.object.value, s.type, e.predicate);
    const lang = e.object.lang;
    const existing = rec.values.find((v) => v.lang === lang && sameValue(v.value, value));
    if (existing === undefined) return;
    this.txn.delta(key, s.list).removeValue(lang, existing.value);
    this.indexValue(s, e.subject, existing, false);
    this.conflict(key, s, s.list ? valueFingerprint(String(value.value)) : 0);
    if (s.count && s.list) this.recount(s, e.subject, rec.values.length);
  }

  /** `S * *`: every predicate of the node's types, then dgraph.type. */
  private deleteNode(subject: number): void {
    const types = this.reader.values("dgraph.type", subject);
    const preds = new Set<string>();
    for (const t of types) {
      const def = this.schema.type(String(t.value.value));
      if (def) for (const f of def.fields) if (!f.startsWith("~")) preds.add(f);
    }
    preds.add("dgraph.type");
    for (const p of preds) {
      this.deleteEdge({ subject, predicate: p, object: { kind: "star" }, facets: [], list: false });
    }
  }

  private reverseEdge(s: PredicateSchema, subject: number, object: number, add: boolean): void {
    if (!s.reverse) return;
    const key = this.reader.keys.reverseKey(s.predicate, object);
    // Counted, not merged: a popular object's reverse list can be long, and it changes on every edge.
    const before = s.count ? this.reader.uidCount(key) : 0;
    const d = this.txn.delta(key, true);
    if (add) d.addUid(subject);
    else d.removeUid(subject);
    if (s.upsert) this.conflict(key, s, 0);
    if (s.count) this.moveCount(s, object, before, this.reader.uidCount(key), true);
  }

  /**
   * Adds or removes the subject under a value's index tokens. Call removals after the data change: a token
   * that one of the subject's remaining values (another list value, another language) still produces stays.
   */
  private indexValue(s: PredicateSchema, subject: number, v: ValuePosting, add: boolean): void {
    const remaining = add ? [] : this.reader.record(this.reader.keys.dataKey(s.predicate, subject)).values;
    // Tokens and keys as latin1 strings: the transaction's deltas are keyed by them, and the key bytes are
    // only built for a key the transaction has not touched yet.
    const prefix = this.reader.keys.indexKeyPrefix(s.predicate);
    for (const tok of s.tokenizers) {
      let keep: Set<string> | undefined;
      for (const r of remaining)
        for (const t of this.services.tokenKeys(tok, r.value, r.lang)) (keep ??= new Set()).add(t);
      for (const token of this.services.tokenKeys(tok, v.value, v.lang)) {
        if (keep?.has(token)) continue;
        checkIndexKeyLength(prefix.length + token.length);
        const d = this.txn.deltaAt(prefix + token, true);
        if (add) d.addUid(subject);
        else d.removeUid(subject);
        this.conflict(d.key, s, subject);
      }
    }
  }

  private recount(s: PredicateSchema, subject: number, before: number): void {
    const rec = this.reader.record(this.reader.keys.dataKey(s.predicate, subject));
    this.moveCount(s, subject, before, rec.uids.length + rec.values.length, false);
  }

  /**
   * The transaction's own view of the count index (its queries see their writes). The committed count
   * keys are derived again at commit from the lists' actual lengths (CommitWriter), so these need no
   * conflict keys, except under @upsert, as in Dgraph.
   */
  private moveCount(s: PredicateSchema, uid: number, before: number, after: number, reverse: boolean): void {
    if (before === after) return;
    if (before > 0) {
      const k = this.reader.keys.countKey(s.predicate, before, reverse);
      this.txn.delta(k, true).removeUid(uid);
      if (s.upsert) this.conflict(k, s, uid);
    }
    if (after > 0) {
      const k = this.reader.keys.countKey(s.predicate, after, reverse);
      this.txn.delta(k, true).addUid(uid);
      if (s.upsert) this.conflict(k, s, uid);
    }
  }
}

function sameValue(a: TypedValue, b: TypedValue): boolean {
  if (a.type !== b.type) return false;
  if (typeof a.value === "object" || typeof b.value === "object")
    return JSON.stringify(a.value) === JSON.stringify(b.value);
  return a.value === b.value;
}

function describe(e: ResolvedEdge): string {
  const o = e.object;
  const obj =
    o.kind === "uid" ? `<0x${o.uid.toString(16)}>` : o.kind === "star" ? "*" : JSON.stringify(o.value.value);
  return `<0x${e.subject.toString(16)}> <${e.predicate}> ${obj} .`;
}

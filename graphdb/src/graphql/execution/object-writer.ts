/**
 * Rewrites input objects (`Add<T>Input`, `<T>Patch`, `<T>Ref`) into the writes of a mutation (reference
 * §2.3, §3.3): new nodes get `dgraph.type` = the type and its interfaces and a blank label; a Ref with an
 * `ID`, or with an `@id` value that exists, links that node without modifying it; any other Ref creates a
 * node. `@id` values are unique per type (per interface with `@id(interface: true)`), within the request as
 * in the database. Every edge keeps its `@hasInverse` pair consistent.
 */
import { type FieldModel, idField, type SchemaModel, type TypeModel } from "../schema/type-model.ts";
import { parseId } from "./dql-literal.ts";
import type { DqlTransaction } from "./dql-transaction.ts";
import { predicateOf } from "./filter-rewriter.ts";
import { storedValue } from "./input-values.ts";
import { type EdgeScope, linkEdge } from "./inverse-edges.ts";
import { MutationRewriteError, payloadError, xidTakenError } from "./mutation-error.ts";
import { MutationWrites } from "./mutation-writes.ts";
import { findByXid, isNodeOfType } from "./xid-check.ts";

export type InputObject = Record<string, unknown>;

/** A node an `@id` value names in this request. */
interface XidEntry {
  obj: InputObject;
  type: TypeModel;
  uid: string;
  topLevel: boolean;
  created: boolean;
  /** An existing node an upsert may not update (its type's `@auth` update rule fails). */
  denied?: boolean;
}

const isEdge = (f: FieldModel) => f.kind === "object" || f.kind === "interface" || f.kind === "union";
const present = (v: unknown) => v !== undefined && v !== null;

/** JSON text with sorted keys, to compare two input objects. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as InputObject;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

function xidFields(type: TypeModel): FieldModel[] {
  return type.fields.filter((f) => f.xid && f.predicate !== "");
}

/** Whether the object gives nothing but `@id` values. */
function onlyXids(type: TypeModel, obj: InputObject): boolean {
  return Object.keys(obj).every((k) => !present(obj[k]) || xidFields(type).some((x) => x.name === k));
}

export class ObjectWriter implements EdgeScope {
  readonly writes = new MutationWrites();
  private readonly xids = new Map<string, XidEntry>();
  /** Refs already resolved: an update's `set` names one node for all the nodes it matches, as in Dgraph. */
  private readonly refs = new WeakMap<InputObject, string>();
  /**
   * Whether an upsert may update existing node `uid` of `type` (the type's `@auth` update rule); unset,
   * every node may be. A node it may not update is left as it is, with all its input (as Dgraph's
   * conditional upsert does).
   */
  mayUpdate: ((type: TypeModel, uid: string) => Promise<boolean>) | undefined;

  constructor(
    readonly tx: DqlTransaction,
    readonly model: SchemaModel,
  ) {}

  /** `dgraph.type` of a new node of `type`: its name and those of its interfaces. */
  typeNames(type: TypeModel): string[] {
    return [type.dgraphType, ...type.interfaces.map((i) => this.model.types.get(i)?.dgraphType ?? i)];
  }

  /**
   * One object of an add (`topLevel`) or a Ref: the node it names or creates. At the top level an existing
   * `@id` is an error, or with `upsert` the node to update (`skipped` when `mayUpdate` refuses it); in a Ref
   * it is linked as it is.
   */
  async object(
    type: TypeModel,
    input: InputObject,
    topLevel: boolean,
    upsert: boolean,
  ): Promise<{ uid: string; created: boolean; skipped?: boolean }> {
    for (const x of xidFields(type)) {
      const value = input[x.name];
      if (!present(value)) continue;
      const key = `${x.xidInterface ? x.declaredIn : type.name}\u0000${x.name}\u0000${canonical(value)}`;
      const seen = this.xids.get(key);
      if (seen !== undefined) {
        const eitherOnlyXid = onlyXids(seen.type, seen.obj) || onlyXids(type, input);
        if (!eitherOnlyXid && ((topLevel && seen.topLevel) || canonical(seen.obj) !== canonical(input)))
          throw new MutationRewriteError(`duplicate XID found: ${String(value)}`);
        if (!seen.created && topLevel && !upsert) throw xidTakenError(value, x.name, type.name);
        if (!seen.created && topLevel) {
          seen.denied ??= !(await this.updatable(type, seen.uid));
          if (seen.denied) return { uid: seen.uid, created: false, skipped: true };
        }
        if (!onlyXids(type, input) && (seen.created ? onlyXids(seen.type, seen.obj) : topLevel)) {
          await this.fill(seen.uid, type, seen.created ? input : this.withoutXids(type, input), seen.created);
          seen.obj = input;
        }
        seen.topLevel ||= topLevel;
        return { uid: seen.uid, created: false };
      }
      const existing = await findByXid(this.tx, this.model, type, x, value);
      if (existing === undefined) continue;
      if (topLevel && !upsert) throw xidTakenError(value, x.name, type.name);
      // Asked once the node is updated (top level); a Ref only links it.
      const denied = topLevel ? !(await this.updatable(type, existing)) : undefined;
      this.xids.set(key, { obj: input, type, uid: existing, topLevel, created: false, denied });
      if (denied) return { uid: existing, created: false, skipped: true };
      if (topLevel) await this.fill(existing, type, this.withoutXids(type, input), false);
      return { uid: existing, created: false };
    }
    if (type.kind !== "object")
      throw payloadError(`a reference to ${type.name} needs the ID or @id of an existing node`);
    if (!topLevel) this.checkRequired(type, input);
    const uid = this.writes.blank(type.name);
    for (const x of xidFields(type)) {
      const value = input[x.name];
      if (!present(value)) continue;
      const key = `${x.xidInterface ? x.declaredIn : type.name}\u0000${x.name}\u0000${canonical(value)}`;
      this.xids.set(key, { obj: input, type, uid, topLevel, created: true });
    }
    await this.fill(uid, type, input, true);
    return { uid, created: true };
  }

  /** The node a Ref names: an existing one by ID or `@id`, or one created from it. */
  async reference(f: FieldModel, ref: InputObject): Promise<string> {
    const known = this.refs.get(ref);
    if (known !== undefined) return known;
    const uid = await this.resolveReference(f, ref);
    this.refs.set(ref, uid);
    return uid;
  }

  private async resolveReference(f: FieldModel, ref: InputObject): Promise<string> {
    const { type, input } = this.refTarget(f, ref);
    const id = idField(type);
    if (id !== undefined && present(input[id.name])) {
      const uid = this.parse(input[id.name]);
      if (!(await isNodeOfType(this.tx, uid, type)))
        throw payloadError(`ID "${String(input[id.name])}" isn't a ${type.name}`);
      return uid;
    }
    return (await this.object(type, input, false, false)).uid;
  }

  /** The existing node a Ref names (by ID or `@id`), never creating one; undefined when there is none. */
  async existingReference(f: FieldModel, ref: InputObject): Promise<string | undefined> {
    const { type, input } = this.refTarget(f, ref);
    const id = idField(type);
    if (id !== undefined && present(input[id.name])) {
      const uid = this.parse(input[id.name]);
      return (await isNodeOfType(this.tx, uid, type)) ? uid : undefined;
    }
    for (const x of xidFields(type)) {
      if (!present(input[x.name])) continue;
      const uid = await findByXid(this.tx, this.model, type, x, input[x.name]);
      if (uid !== undefined) return uid;
    }
    return undefined;
  }

  /**
   * Writes the values of `input` to node `uid` of `type`: scalars replace (lists add), edges link (with
   * their inverses). A new node also gets its `dgraph.type`; on an existing one an `@id` value must not be
   * another node's.
   */
  async fill(uid: string, type: TypeModel, input: InputObject, isNew: boolean): Promise<void> {
    if (isNew) for (const t of this.typeNames(type)) this.writes.set(uid, "dgraph.type", t, true);
    for (const [name, value] of Object.entries(input)) {
      if (!present(value)) continue;
      if (type.secret !== undefined && name === type.secret.field) {
        this.writes.set(uid, type.secret.predicate, value, false);
        continue;
      }
      const f = type.fields.find((x) => x.name === name);
      if (f === undefined || f.predicate === "" || f.reverse || (f.kind === "id" && !f.storedId)) continue;
      const values = f.list && Array.isArray(value) ? value : [value];
      if (isEdge(f)) {
        for (const ref of values) {
          if (!present(ref)) continue;
          await linkEdge(this, uid, f, await this.reference(f, ref as InputObject));
        }
        continue;
      }
      if (f.xid && !isNew) {
        const holder = await findByXid(this.tx, this.model, type, f, value);
        if (holder !== undefined && holder !== uid) throw xidTakenError(value, f.name, type.name);
      }
      for (const v of values) if (present(v)) this.writes.set(uid, predicateOf(f), storedValue(f, v), f.list);
    }
  }

  private updatable(type: TypeModel, uid: string): Promise<boolean> {
    return this.mayUpdate === undefined ? Promise.resolve(true) : this.mayUpdate(type, uid);
  }

  private withoutXids(type: TypeModel, input: InputObject): InputObject {
    const xids = new Set(xidFields(type).map((x) => x.name));
    return Object.fromEntries(Object.entries(input).filter(([k]) => !xids.has(k)));
  }

  /** Dgraph's check that a node created from a Ref has every required value. */
  private checkRequired(type: TypeModel, input: InputObject): void {
    for (const f of type.fields) {
      if (!f.nonNull || f.kind === "id" || f.predicate === "" || f.reverse || f.custom || f.lambda) continue;
      if (!present(input[f.name]))
        throw payloadError(`type ${type.name} requires a value for field ${f.name}, but no value present`);
    }
    if (type.secret !== undefined && !present(input[type.secret.field]))
      throw payloadError(
        `type ${type.name} requires a value for field ${type.secret.field}, but no value present`,
      );
  }

  /** A Ref's type and values: for a union, the one member given (`{authorRef: {...}}`). */
  private refTarget(f: FieldModel, ref: InputObject): { type: TypeModel; input: InputObject } {
    const type = this.model.types.get(f.typeName) as TypeModel;
    if (type.kind !== "union") return { type, input: ref };
    const given = Object.entries(ref).filter(([, v]) => present(v));
    const member =
      given.length === 1
        ? type.members.find((m) => given[0][0].toLowerCase() === `${m}ref`.toLowerCase())
        : undefined;
    if (member === undefined)
      throw payloadError(`value for field ${f.name} must name exactly one member of ${type.name}`);
    return { type: this.model.types.get(member) as TypeModel, input: given[0][1] as InputObject };
  }

  private parse(id: unknown): string {
    try {
      return parseId(id);
    } catch (e) {
      throw new MutationRewriteError((e as Error).message);
    }
  }
}

import { DgraphError } from "../core/errors.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { Edge, NodeRef } from "./edge.ts";
import type { ResolvedEdge } from "./mutation-applier.ts";

/** What resolution needs from the request: uid leasing and the upsert query's variables. */
export interface ResolveContext {
  /** Reserves n consecutive new uids, returns the first. */
  leaseUids(n: number): number;
  /** Highest uid handed out; explicit uids above it are refused as in Dgraph. */
  maxUid(): number;
  uidVar(name: string): Float64Array | undefined;
  valueVar(name: string, subject: number): TypedValue | undefined;
}

/**
 * Resolves a request's blank nodes, `uid(v)` and `val(x)` references to concrete uids and values.
 * Blank nodes are request-scoped; new uids are allocated in order of first appearance. `uid(v)` expands to
 * every uid of v (cross product of subject and object); an empty v in a set creates one new node, keyed
 * `uid(v)` in the response, and drops the N-Quad in a delete.
 */
export class EdgeResolver {
  /** Blank label (without `_:`) → uid; reported in the response's `uids`. */
  readonly newUids = new Map<string, number>();

  constructor(private readonly ctx: ResolveContext) {}

  /**
   * Allocates uids for every blank node and empty-var set target in the request, in order. `pace` is
   * awaited every few thousand edges (a caller's time slice: it may give the event loop back).
   */
  async allocate(
    edgeLists: { edges: Edge[]; op: "set" | "delete" }[],
    pace: () => Promise<void> = async () => {},
  ): Promise<void> {
    const labels: string[] = [];
    const seen = new Set<string>(this.newUids.keys());
    const note = (ref: NodeRef, op: "set" | "delete") => {
      let label: string | undefined;
      if (ref.kind === "blank") label = ref.label;
      else if (ref.kind === "var" && op === "set" && (this.ctx.uidVar(ref.name)?.length ?? 0) === 0) {
        label = `uid(${ref.name})`;
      }
      if (label !== undefined && !seen.has(label)) {
        seen.add(label);
        labels.push(label);
      }
    };
    for (const { edges, op } of edgeLists) {
      for (let i = 0; i < edges.length; i++) {
        const e = edges[i];
        note(e.subject, op);
        if (e.object.kind === "node") note(e.object.ref, op);
        if ((i & 1023) === 1023) await pace();
      }
    }
    if (labels.length === 0) return;
    const first = this.ctx.leaseUids(labels.length);
    for (let i = 0; i < labels.length; i++) this.newUids.set(labels[i], first + i);
  }

  private refUids(ref: NodeRef, op: "set" | "delete"): number[] {
    switch (ref.kind) {
      case "uid": {
        const max = this.ctx.maxUid();
        if (ref.uid > max) throw new DgraphError(`Uid: [${ref.uid}] cannot be greater than lease: [${max}]`);
        return [ref.uid];
      }
      case "blank": {
        const uid = this.newUids.get(ref.label);
        if (uid === undefined) throw new DgraphError(`blank node _:${ref.label} was not allocated`);
        return [uid];
      }
      case "var": {
        const uids = this.ctx.uidVar(ref.name);
        if (uids && uids.length > 0) return Array.from(uids);
        if (op === "delete") return [];
        const uid = this.newUids.get(`uid(${ref.name})`);
        return uid === undefined ? [] : [uid];
      }
    }
  }

  resolve(edges: Edge[], op: "set" | "delete"): ResolvedEdge[] {
    const out: ResolvedEdge[] = [];
    for (const e of edges) {
      const subjects = this.refUids(e.subject, op);
      if (subjects.length === 0) continue;
      const o = e.object;
      for (const subject of subjects) {
        switch (o.kind) {
          case "node":
            for (const uid of this.refUids(o.ref, op)) {
              out.push({
                subject,
                predicate: e.predicate,
                object: { kind: "uid", uid },
                facets: e.facets,
                list: e.list,
              });
            }
            break;
          case "literal":
            out.push({
              subject,
              predicate: e.predicate,
              object: { kind: "value", value: { type: o.type, value: o.value }, lang: o.lang ?? "" },
              facets: e.facets,
              list: e.list,
            });
            break;
          case "valVar": {
            const v = this.ctx.valueVar(o.name, subject);
            if (v === undefined) break; // Dgraph skips the N-Quad when the variable has no value here
            out.push({
              subject,
              predicate: e.predicate,
              object: { kind: "value", value: v, lang: "" },
              facets: e.facets,
              list: e.list,
            });
            break;
          }
          case "star":
            out.push({ subject, predicate: e.predicate, object: { kind: "star" }, facets: [], list: e.list });
            break;
        }
      }
    }
    return out;
  }
}

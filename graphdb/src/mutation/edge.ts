import type { Facet } from "../core/facet.ts";
import type { ScalarType } from "../core/scalar.ts";

/** Whether statements add (`set`) or remove (`delete`) edges: decides the allowed `*` patterns and checks. */
export type EdgeOp = "set" | "delete";

/** A node reference in a mutation: existing uid, blank node (label without `_:`), or upsert `uid(v)`. */
export type NodeRef =
  | { kind: "uid"; uid: number }
  | { kind: "blank"; label: string }
  | { kind: "var"; name: string };

export type EdgeObject =
  /** An edge to another node. */
  | { kind: "node"; ref: NodeRef }
  /**
   * A literal. `type` is the type the input declares: RDF untyped literal → "default", `^^<xs:int>` → "int",
   * JSON string → "string", JSON integer → "int", JSON float → "float", JSON bool → "bool", GeoJSON → "geo".
   * The engine converts to the predicate's schema type.
   */
  | { kind: "literal"; type: ScalarType; value: string | number | boolean | object; lang?: string }
  /** `val(x)` in an upsert mutation: the value of variable x for the subject. */
  | { kind: "valVar"; name: string }
  /** `*` object: only valid in deletes (`S P *`, `S * *`). */
  | { kind: "star" };

/** One N-Quad / JSON edge, normalised. `predicate` is "*" only for `S * *` deletes. */
export interface Edge {
  subject: NodeRef;
  predicate: string;
  object: EdgeObject;
  facets: Facet[];
  /**
   * Auto-schema hint: true when the input implies a list (RDF uid edges, JSON arrays), false for a single
   * JSON nested object or scalar. Only used when the predicate has no schema yet.
   */
  list: boolean;
}

/** A parsed set of mutation edges (deletes are applied before sets). */
export interface ParsedMutation {
  set: Edge[];
  del: Edge[];
}

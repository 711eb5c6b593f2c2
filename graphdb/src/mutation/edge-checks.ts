/**
 * The checks `edgraph.validateNQuads` applies to an edge before a mutation is applied, with Dgraph's error
 * texts: predicate length and key syntax, `*` patterns, facet keys. The RDF parser runs them inline (with a
 * cache); JSON mutations run `checkEdge` on each parsed edge.
 */
import { DgraphError } from "../core/errors.ts";
import type { Facet } from "../core/facet.ts";
import { goQuote } from "../types/strconv.ts";
import type { Edge, EdgeObject, EdgeOp } from "./edge.ts";
import { sortFacets } from "./facet-parser.ts";
import { GO_SPACE } from "./go-space.ts";
import { formatNQuad } from "./nquad-format.ts";

/** Dgraph's `validateKey`, for predicates and facet keys of set mutations; the reason or null. */
function keyProblem(key: string): string | null {
  if (key.length === 0) return "Has zero length";
  if (key.includes("~") || key.includes("@")) return "Has invalid characters";
  if (GO_SPACE.test(key)) return "Must not contain spaces";
  return null;
}

/** Length limit of predicate names (bytes), as `edgraph.validatePredName`. */
const MAX_PREDICATE_BYTES = 65535;

/** Predicate checks of `edgraph.validateNQuads`: length always, key syntax on set. */
export function checkPredicate(predicate: string, op: EdgeOp, describe: () => string): void {
  if (predicate.length > MAX_PREDICATE_BYTES / 3 && Buffer.byteLength(predicate) > MAX_PREDICATE_BYTES) {
    throw new DgraphError(
      `Predicate name length cannot be bigger than 2^16. Predicate: ${predicate.slice(0, 80)}`,
    );
  }
  if (op === "set" && predicate !== "*") {
    const problem = keyProblem(predicate);
    if (problem !== null)
      throw new DgraphError(`key error: ${describe()}: predicate ${goQuote(predicate, "json")}: ${problem}`);
  }
}

/** The `*` rules of `edgraph.validateNQuads`: none in sets; only `S P *` and `S * *` in deletes. */
export function checkStars(
  subjectStar: boolean,
  predicate: string,
  object: EdgeObject,
  op: EdgeOp,
  describe: () => string,
): void {
  const objectStar = object.kind === "star";
  if (op === "set") {
    if (subjectStar || predicate === "*" || objectStar) {
      throw new DgraphError(`Cannot use star in set n-quad: ${describe()}`);
    }
  } else if (subjectStar || (predicate === "*" && !objectStar)) {
    throw new DgraphError(`Only valid wildcard delete patterns are 'S * *' and 'S P *': ${describe()}`);
  }
}

/** Facet key checks of set mutations. */
export function checkFacetKeys(facets: Facet[], describe: () => string): void {
  for (const f of facets) {
    const problem = keyProblem(f.key);
    if (problem !== null)
      throw new DgraphError(`key error: ${describe()}: Facet ${goQuote(f.key, "json")}, ${problem}`);
  }
}

/** All checks Dgraph applies to a parsed edge before use (JSON mutations; RDF runs them inline). */
export function checkEdge(edge: Edge, op: EdgeOp): void {
  const describe = () => formatNQuad(edge.subject, edge.predicate, edge.object, edge.facets);
  checkPredicate(edge.predicate, op, describe);
  checkStars(false, edge.predicate, edge.object, op, describe);
  if (edge.facets.length > 0) {
    if (op === "set") checkFacetKeys(edge.facets, describe);
    sortFacets(edge.facets, op === "set");
  }
}

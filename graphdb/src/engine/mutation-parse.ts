/**
 * A mutation request's inputs (N-Quads, JSON) to edges, bounded and sliced: its text size and N-Quad count
 * are checked against the engine's MutationLimits (the count as parsing goes, so an oversized request stops
 * early), and long N-Quad texts are parsed a chunk of lines at a time, the event loop given back between
 * chunks (QueryBudget.pace), so that a 200k-line mutation does not hold up other namespaces' requests.
 */
import { DgraphError } from "../core/errors.ts";
import type { Edge, EdgeOp } from "../mutation/edge.ts";
import { parseJsonMutation } from "../mutation/json-mutation.ts";
import { parseJsonTextSliced } from "../mutation/json-text-parser.ts";
import { LineParser, parseLines } from "../mutation/rdf-parser.ts";
import type { QueryBudget } from "../query/query-budget.ts";
import type { MutationInput } from "./engine-api.ts";

export interface MutationLimits {
  /** N-Quads (edges, set and delete together) one request may carry. Dgraph's limit: 1,000,000. */
  nquads: number;
  /**
   * Bytes (UTF-8) of mutation text one request may carry (N-Quads and JSON text, the upsert query); 0 for
   * no engine limit. JSON given as objects (in-process callers) is not counted. The HTTP and gRPC servers bound whole requests anyway (32 MiB by default).
   */
  bytes: number;
  /**
   * Longest a mutation request may run, in ms, before it is committed (parsing, the upsert query, applying
   * the edges): past it, it fails with "context deadline exceeded" and its transaction is aborted. 0 for no
   * server limit, as Dgraph; the request's own timeout (a gRPC call's deadline) applies either way.
   */
  timeoutMs: number;
}

export const DEFAULT_MUTATION_LIMITS: Readonly<MutationLimits> = {
  nquads: 1_000_000,
  bytes: 0,
  timeoutMs: 0,
};

export interface ParsedMutation {
  set: Edge[];
  del: Edge[];
  cond?: string;
}

/** Characters of N-Quad text parsed between two chances to pause (whole lines). */
const NQUAD_CHUNK_CHARS = 64 * 1024;

/** Parses every mutation of a request, pausing between chunks; throws on a limit or a bad input. */
export async function parseMutations(
  inputs: MutationInput[],
  query: string | undefined,
  limits: MutationLimits,
  budget: QueryBudget,
  nextBlankLabel: () => string,
): Promise<ParsedMutation[]> {
  checkBytes(inputs, query, limits.bytes);
  const counter = { edges: 0, max: limits.nquads };
  const out: ParsedMutation[] = [];
  for (const m of inputs) out.push(await parseMutation(m, counter, budget, nextBlankLabel));
  return out;
}

async function parseMutation(
  m: MutationInput,
  counter: { edges: number; max: number },
  budget: QueryBudget,
  nextBlankLabel: () => string,
): Promise<ParsedMutation> {
  const ctx = { nextBlankLabel };
  const json = (v: unknown) => (typeof v === "string" ? parseJsonTextSliced(v, () => budget.pace()) : v);
  const set: Edge[][] = [];
  const del: Edge[][] = [];
  if (m.setJson !== undefined)
    set.push(...(await parseJsonSliced(await json(m.setJson), "set", ctx, counter, budget)));
  await budget.pace();
  if (m.deleteJson !== undefined) {
    del.push(...(await parseJsonSliced(await json(m.deleteJson), "delete", ctx, counter, budget)));
  }
  await budget.pace();
  if (m.setNquads) set.push(await parseNQuadsSliced(m.setNquads, "set", counter, budget));
  if (m.delNquads) del.push(await parseNQuadsSliced(m.delNquads, "delete", counter, budget));
  // concat, not push(...): spreading 100k+ edges overflows the call stack.
  return { set: ([] as Edge[]).concat(...set), del: ([] as Edge[]).concat(...del), cond: m.cond };
}

/** Objects of a JSON array turned into edges between two chances to pause (each object is stateless). */
const JSON_CHUNK = 512;

/** A JSON set or delete value to edges; a top-level array a chunk of objects at a time. */
async function parseJsonSliced(
  value: unknown,
  op: EdgeOp,
  ctx: { nextBlankLabel: () => string },
  counter: { edges: number; max: number },
  budget: QueryBudget,
): Promise<Edge[][]> {
  if (!Array.isArray(value) || value.length <= JSON_CHUNK) {
    const edges = parseJsonMutation(value, op, ctx);
    count(counter, edges.length);
    return [edges];
  }
  const out: Edge[][] = [];
  for (let i = 0; i < value.length; i += JSON_CHUNK) {
    const edges = parseJsonMutation(value.slice(i, i + JSON_CHUNK), op, ctx);
    count(counter, edges.length);
    out.push(edges);
    await budget.pace();
  }
  return out;
}

async function parseNQuadsSliced(
  text: string,
  op: EdgeOp,
  counter: { edges: number; max: number },
  budget: QueryBudget,
): Promise<Edge[]> {
  const parser = new LineParser(op, false);
  const out: Edge[] = [];
  for (let from = 0; from <= text.length; ) {
    let to = from + NQUAD_CHUNK_CHARS >= text.length ? -1 : text.indexOf("\n", from + NQUAD_CHUNK_CHARS);
    if (to < 0) to = text.length;
    const before = out.length;
    parseLines(parser, text, from, to, out);
    count(counter, out.length - before);
    from = to + 1;
    await budget.pace();
  }
  return out;
}

function count(counter: { edges: number; max: number }, n: number): void {
  counter.edges += n;
  if (counter.edges > counter.max) {
    // Dgraph's text (its typo included), then what to do.
    throw new DgraphError(
      `NQuad count in the request: ${counter.edges}, is more that threshold: ${counter.max}.` +
        " Split the mutation into smaller requests.",
    );
  }
}

function checkBytes(inputs: MutationInput[], query: string | undefined, max: number): void {
  if (max <= 0) return;
  let size = query === undefined ? 0 : Buffer.byteLength(query);
  for (const m of inputs) {
    for (const v of [m.setNquads, m.delNquads, m.setJson, m.deleteJson, m.cond]) {
      if (typeof v === "string") size += Buffer.byteLength(v);
    }
  }
  if (size > max) {
    throw new DgraphError(
      `Mutation request of ${size} bytes is larger than this server's limit of ${max} bytes.` +
        " Split it into smaller requests.",
    );
  }
}

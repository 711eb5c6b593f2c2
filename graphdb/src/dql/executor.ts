/**
 * Executes a parsed DQL document against a transaction's GraphReader (Dgraph's query.Request.Process):
 * blocks run in variable-dependency order, each block level by level; then `@cascade` and variables
 * are settled, aggregations and math computed, and the result encoded (JSON text of the `data`
 * object, or N-Quads). A document with a `schema {}` block renders the schema instead.
 */
import { DgraphError } from "../engine/errors.ts";
import type { GraphReader } from "../engine/graph-reader.ts";
import { renderSchema } from "../schema/schema-output.ts";
import type { TypedValue } from "../types/scalar.ts";
import type { DqlDocument } from "./ast.ts";
import { paginateAfterCascade, restrictRows } from "./cascade.ts";
import type { ExecContext } from "./exec-context.ts";
import { encodeJson } from "./json-encoder.ts";
import { processBlock } from "./process-graph.ts";
import { encodeRdf } from "./rdf-encoder.ts";
import { processRecurse } from "./recurse.ts";
import { blockToSubGraph, type SubGraph } from "./subgraph.ts";
import {
  canExecute,
  exposeVars,
  populatePostAggregation,
  populateVarMap,
  type VarStore,
} from "./variables.ts";

export interface QueryOptions {
  /** `debug=true`: every node carries its `uid`. */
  debug?: boolean;
  /** Epoch milliseconds; past it execution stops with "context deadline exceeded". */
  deadline?: number;
  /** `respFormat=rdf`: also (only) produce the N-Quads text in `rdf`. */
  respFormat?: "json" | "rdf";
}

export interface QueryVars {
  /** Uid variables (sorted uids). */
  uids: Map<string, Float64Array>;
  /** Value variables: value per uid. */
  values: Map<string, Map<number, TypedValue>>;
}

export interface QueryResult {
  /** JSON text of the `data` object (`{"q":[...]}`; `{}` when only var blocks ran). */
  json: string;
  /** With respFormat "rdf": the N-Quads (`json` is then "{}"). */
  rdf?: string;
  /** Uids touched per predicate, and `_total`. */
  metrics: Record<string, number>;
  /** Variables defined by the query, for upserts. */
  vars: QueryVars;
}

/**
 * Runs a query document. Throws DgraphError; execution errors are prefixed with ": " as Dgraph's
 * edgraph wraps them (`": Predicate name is not indexed"`).
 */
export function executeQuery(reader: GraphReader, doc: DqlDocument, opts: QueryOptions = {}): QueryResult {
  try {
    return execute(reader, doc, opts);
  } catch (e) {
    if (e instanceof DgraphError) throw new DgraphError(`: ${e.message}`, e.code, e.grpcCode);
    throw e;
  }
}

function execute(reader: GraphReader, doc: DqlDocument, opts: QueryOptions): QueryResult {
  if (doc.schema !== undefined) return schemaResult(reader, doc);
  const ctx: ExecContext = {
    reader,
    vars: new Map(),
    deadline: opts.deadline ?? Number.POSITIVE_INFINITY,
    debug: opts.debug === true,
    metrics: new Map(),
    valueMemo: new Map(),
  };
  const blocks = doc.blocks.map((b) => blockToSubGraph(b, ctx.debug));
  runBlocks(ctx, doc, blocks);
  const metrics = metricsRecord(ctx.metrics);
  const vars = exposeVars(ctx.vars);
  if (opts.respFormat === "rdf") return { json: "{}", rdf: encodeRdf(blocks), metrics, vars };
  return { json: encodeJson(blocks), metrics, vars };
}

/** Runs every block once its variables are available; blocks ready together run as one wave. */
function runBlocks(ctx: ExecContext, doc: DqlDocument, blocks: SubGraph[]): void {
  const done = new Array<boolean>(blocks.length).fill(false);
  let remaining = blocks.length;
  while (remaining > 0) {
    const wave: number[] = [];
    for (let i = 0; i < blocks.length; i++) {
      if (!done[i] && canExecute(doc.blocks[i], ctx.vars)) wave.push(i);
    }
    if (wave.length === 0) throw new DgraphError("Query couldn't be executed");
    for (const i of wave) {
      const sg = blocks[i];
      if (sg.recurse !== undefined && !sg.isEmptyBlock) processRecurse(ctx, sg);
      else processBlock(ctx, sg);
    }
    for (const i of wave) {
      settleBlock(ctx.vars, blocks[i]);
      done[i] = true;
      remaining--;
    }
  }
}

/** Cascade, variables, root pagination deferred by cascade, then aggregations and math. */
function settleBlock(store: VarStore, sg: SubGraph): void {
  populateVarMap(store, sg, []);
  if (sg.cascade.length > 0 && (sg.cascadeFirst !== 0 || sg.cascadeOffset !== 0)) {
    restrictRows(sg);
    paginateAfterCascade(sg);
  }
  populatePostAggregation(store, sg, [], undefined);
}

function metricsRecord(m: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  let total = 0;
  for (const [k, v] of m) {
    out[k] = v;
    total += v;
  }
  out._total = total;
  return out;
}

function schemaResult(reader: GraphReader, doc: DqlDocument): QueryResult {
  const q = doc.schema!;
  const result = renderSchema(reader.schema.predicates(), reader.schema.types(), {
    predicates: q.predicates,
    types: q.types,
    fields: q.fields,
  });
  return {
    json: JSON.stringify(result),
    metrics: { _total: 0 },
    vars: { uids: new Map(), values: new Map() },
  };
}

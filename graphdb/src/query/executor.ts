/**
 * Executes a parsed DQL document against a transaction's GraphReader (Dgraph's query.Request.Process):
 * blocks run in variable-dependency order, each block level by level; then `@cascade` and variables
 * are settled, aggregations and math computed, and the result encoded (JSON text of the `data`
 * object, or N-Quads). A document with a `schema {}` block renders the schema instead.
 *
 * Execution is a sequence of Steps charged to a QueryBudget. `executeQueryAsync` (what the engine
 * uses) gives the event loop back whenever the query has run for a time slice, so a heavy query slows
 * others down instead of stopping them; `executeQuery` runs the same steps to the end in one go.
 */
import { DgraphError } from "../core/errors.ts";
import type { GraphReader } from "../core/graph-reader.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { DqlDocument } from "../dql/ast.ts";
import { renderSchema } from "../schema/schema-output.ts";
import { paginateAfterCascade, restrictRows } from "./cascade.ts";
import { checkDeadline, type ExecContext, type Steps } from "./exec-context.ts";
import { encodeJson } from "./output/json-encoder.ts";
import { encodeRdf } from "./output/rdf-encoder.ts";
import { processBlock } from "./process-graph.ts";
import { MAX_RESPONSE_BYTES, QueryBudget, type QueryLimits, TIME_SLICE_MS } from "./query-budget.ts";
import { processRecurse } from "./recurse.ts";
import { blockToSubGraph, type SubGraph } from "./subgraph.ts";
import type { VarStore } from "./var-store.ts";
import { canExecute, exposeVars, populatePostAggregation, populateVarMap } from "./variables.ts";

export interface QueryOptions {
  /** `debug=true`: every node carries its `uid`. */
  debug?: boolean;
  /** Milliseconds the query may run; past them it stops with "context deadline exceeded". */
  timeoutMs?: number;
  /** Per-query limits; DEFAULT_QUERY_LIMITS for those not given. */
  limits?: Partial<QueryLimits>;
  /** `respFormat=rdf`: also (only) produce the N-Quads text in `rdf`. */
  respFormat?: "json" | "rdf";
  /**
   * Write a node whose selection yields nothing as `{}` instead of dropping it (in-process only): the
   * GraphQL layer keeps every node of a list without selecting a value each node has.
   */
  keepEmptyNodes?: boolean;
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
 * Runs a query document to the end, without pausing. Throws DgraphError; execution errors are prefixed
 * with ": " as Dgraph's edgraph wraps them (`": Predicate name is not indexed"`), errors while writing
 * the JSON with "while running ToJson: " as its ToJson does.
 */
export function executeQuery(reader: GraphReader, doc: DqlDocument, opts: QueryOptions = {}): QueryResult {
  const steps = querySteps(reader, doc, opts, budgetFor(opts));
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs a query document, pausing (setImmediate) whenever it has run for TIME_SLICE_MS, so that other
 * requests are served while it runs. Same result and errors as executeQuery.
 */
export async function executeQueryAsync(
  reader: GraphReader,
  doc: DqlDocument,
  opts: QueryOptions = {},
): Promise<QueryResult> {
  const budget = budgetFor(opts);
  const steps = querySteps(reader, doc, opts, budget, true);
  for (;;) {
    budget.startSlice(TIME_SLICE_MS);
    const step = steps.next();
    if (step.done) return step.value;
    if (step.value !== undefined) await step.value;
    else await new Promise<void>((resume) => setImmediate(resume));
  }
}

function budgetFor(opts: QueryOptions): QueryBudget {
  return new QueryBudget({ timeoutMs: opts.timeoutMs, limits: opts.limits });
}

function* querySteps(
  reader: GraphReader,
  doc: DqlDocument,
  opts: QueryOptions,
  budget: QueryBudget,
  awaits = false,
): Steps<QueryResult> {
  if (doc.schema !== undefined) return schemaResult(reader, doc);
  const ctx: ExecContext = {
    reader,
    vars: new Map(),
    budget,
    debug: opts.debug === true,
    metrics: new Map(),
    valueMemo: new Map(),
    awaits,
  };
  let blocks: SubGraph[];
  try {
    blocks = doc.blocks.map((b) => blockToSubGraph(b, ctx.debug, opts.keepEmptyNodes === true));
    yield* runBlocks(ctx, doc, blocks);
    if (opts.respFormat === "rdf") {
      const rdf = encodeRdf(blocks);
      return { json: "{}", rdf, metrics: metricsRecord(ctx.metrics), vars: exposeVars(ctx.vars) };
    }
  } catch (e) {
    if (e instanceof DgraphError) throw new DgraphError(`: ${e.message}`, e.code, e.grpcCode);
    throw e;
  }
  let json: string;
  try {
    json = yield* encodeJson(blocks, budget);
  } catch (e) {
    // V8's own bound on a string ("Invalid string length"), reached only if the limit was set above it.
    const tooLong = e instanceof RangeError && e.message.includes("string length");
    const cause = tooLong ? budget.responseTooLarge(MAX_RESPONSE_BYTES) : e;
    if (cause instanceof DgraphError) {
      throw new DgraphError(`while running ToJson: ${cause.message}`, cause.code, cause.grpcCode);
    }
    throw cause;
  }
  return { json, metrics: metricsRecord(ctx.metrics), vars: exposeVars(ctx.vars) };
}

/** Runs every block once its variables are available; blocks ready together run as one wave. */
function* runBlocks(ctx: ExecContext, doc: DqlDocument, blocks: SubGraph[]): Steps {
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
      if (sg.recurse !== undefined && !sg.isEmptyBlock) yield* processRecurse(ctx, sg);
      else yield* processBlock(ctx, sg);
    }
    for (const i of wave) {
      checkDeadline(ctx);
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

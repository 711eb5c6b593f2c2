/**
 * The DQL parser: request text → `DqlDocument` (see `ast.ts`). Mirrors Dgraph's `dql.Parse`: the whole
 * input is lexed first, query variables are resolved, blocks/fragments/schema blocks are parsed, fragments
 * expanded, then variable dependencies and block aliases are checked. Every failure is a
 * `DqlSyntaxError` carrying Dgraph's message.
 */
import type { DqlDocument, QueryBlock, SchemaQuery } from "./ast.ts";
import { parseQueryBlock } from "./block-parser.ts";
import { DqlSyntaxError } from "./errors.ts";
import { Fragments } from "./fragments.ts";
import { lexDql, type Token } from "./lexer.ts";
import type { ParseContext } from "./parse-context.ts";
import { VariableMap } from "./query-variables.ts";
import { type RawNode, toQueryBlock } from "./raw-query.ts";
import { parseSchemaQuery } from "./schema-query-parser.ts";
import { locationOf, TokenStream } from "./token-stream.ts";
import { checkVariableDependencies } from "./variable-usage.ts";

export { conditionVariables, parseCondition, parseFilterExpression } from "./condition-parser.ts";
export { DqlSyntaxError } from "./errors.ts";

export interface ParseOptions {
  /**
   * Variables used outside the query (an upsert's mutations: `uid(v)`, `val(x)`), so that they count
   * as used in the "defined but not used" check.
   */
  readonly needVars?: readonly string[];
}

/**
 * Reads every `query name($a: t = d, ...)` header first, so that variables are known wherever they are
 * used. Returns, per `query` keyword token index, the index of the header's `{`.
 */
function readQueryHeaders(tokens: Token[], vars: VariableMap): Map<number, number> {
  const bodies = new Map<number, number>();
  for (let i = 0; i < tokens.length; i++) {
    const op = tokens[i];
    if (op.kind !== "OpType" || op.value !== "query") continue;
    const ts = new TokenStream(tokens);
    ts.restore(i);
    let name = "";
    while (ts.next()) {
      const item = ts.item;
      if (item.kind === "Name") {
        if (name !== "") throw ts.errorAt(item, "Multiple word query name not allowed.");
        name = item.value;
      } else if (item.kind === "LeftRound") {
        if (name === "") throw ts.errorAt(item, "Variables can be defined only in named queries.");
        vars.parseDefinitions(ts);
        vars.checkValueTypes();
      } else if (item.kind === "LeftCurl") {
        bodies.set(i, ts.save());
        break;
      }
    }
  }
  return bodies;
}

function parseDocument(text: string, supplied: Record<string, string> | undefined, options: ParseOptions) {
  const tokens = lexDql(text);
  const vars = new VariableMap(supplied);
  const bodies = readQueryHeaders(tokens, vars);
  const ts = new TokenStream(tokens);
  const ctx: ParseContext = { ts, vars, input: text };
  const fragments = new Fragments();
  const raws: RawNode[] = [];
  let schema: SchemaQuery | undefined;
  let queryName: string | undefined;

  while (ts.next()) {
    const item = ts.item;
    switch (item.kind) {
      case "OpType":
        switch (item.value) {
          case "mutation":
            throw ts.errorAt(item, "Mutation block no longer allowed.");
          case "schema":
            if (schema !== undefined) throw ts.errorAt(item, "Only one schema block allowed ");
            if (raws.length > 0) throw ts.errorAt(item, "Schema block is not allowed with query block");
            schema = parseSchemaQuery(ts, locationOf(item));
            break;
          case "fragment":
            fragments.parseDefinition(ctx);
            break;
          case "query": {
            if (schema !== undefined) throw ts.errorAt(item, "Schema block is not allowed with query block");
            const body = bodies.get(ts.save());
            if (body === undefined) break;
            const name = ts.peek();
            if (queryName === undefined && name !== undefined && name.kind === "Name") queryName = name.value;
            ts.restore(body);
            raws.push(parseQueryBlock(ctx));
            break;
          }
        }
        break;
      case "LeftCurl":
        if (schema !== undefined) throw ts.errorAt(item, "Schema block is not allowed with query block");
        raws.push(parseQueryBlock(ctx));
        break;
      case "Name":
        if (schema !== undefined) throw ts.errorAt(item, "Schema block is not allowed with query block");
        ts.prev();
        raws.push(parseQueryBlock(ctx));
        break;
      default:
        break;
    }
  }

  const blocks: QueryBlock[] = [];
  if (raws.length > 0) {
    for (const raw of raws) {
      fragments.expand(raw);
      blocks.push(toQueryBlock(raw));
    }
    checkVariableDependencies(blocks, options.needVars ?? []);
    const seen = new Set<string>();
    for (const b of blocks.length > 1 ? blocks : []) {
      if (b.name === "var" || b.name === "shortest") continue;
      if (seen.has(b.name)) throw new DqlSyntaxError(`Duplicate aliases not allowed: ${b.name}`);
      seen.add(b.name);
    }
  }

  const doc: { -readonly [K in keyof DqlDocument]: DqlDocument[K] } = {
    kind: "Document",
    variables: vars.definitions,
    blocks,
  };
  if (queryName !== undefined) doc.name = queryName;
  if (schema !== undefined) doc.schema = schema;
  return doc;
}

/**
 * Parses a DQL request. `vars` are the request's query variables, keys with their `$` (`{"$a": "x"}`).
 * Throws `DqlSyntaxError` (a `DgraphError` coded ErrorInvalidRequest) on any invalid input.
 */
export function parseDql(
  text: string,
  vars?: Record<string, string>,
  options: ParseOptions = {},
): DqlDocument {
  try {
    return parseDocument(text, vars, options);
  } catch (error) {
    if (error instanceof DqlSyntaxError) throw error;
    // Pathologically deep nesting exhausts the stack; report it as a request error, never a crash.
    if (error instanceof RangeError) throw new DqlSyntaxError("Query is nested too deeply");
    throw error;
  }
}

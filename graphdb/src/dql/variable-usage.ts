/**
 * Which query variables (`x as ...`) each block defines and reads, and Dgraph's check that every
 * defined variable is used and every used one defined (`checkDependency`).
 */
import type {
  FilterTree,
  FunctionCall,
  MathExpr,
  OrderKey,
  QueryBlock,
  Selection,
  SelectionContainer,
} from "./ast.ts";
import { plainError } from "./token-stream.ts";

interface Usage {
  defines: string[];
  needs: string[];
}

function functionNeeds(fn: FunctionCall, out: string[]): void {
  if (fn.uids !== undefined) out.push(...fn.uids.vars);
  if (fn.attr !== undefined && (fn.attr.kind === "ValueVarAttr" || fn.attr.kind === "LenVarAttr")) {
    out.push(fn.attr.varName);
  }
  for (const arg of fn.args) {
    if (arg.kind === "ValueVarArg" || arg.kind === "UidVarArg") out.push(arg.varName);
  }
}

/** Appends the variables a filter / condition reads (`uid(v)`, `len(v)`, `val(x)`, `uid_in(p, uid(v))`). */
export function filterNeeds(tree: FilterTree, out: string[]): void {
  switch (tree.kind) {
    case "FilterFunction":
      functionNeeds(tree.func, out);
      return;
    case "FilterAnd":
    case "FilterOr":
      for (const operand of tree.operands) filterNeeds(operand, out);
      return;
    case "FilterNot":
      filterNeeds(tree.operand, out);
      return;
  }
}

function mathNeeds(expr: MathExpr, out: string[]): void {
  switch (expr.kind) {
    case "MathNumber":
      return;
    case "MathVarRef":
      out.push(expr.varName);
      return;
    case "MathUnary":
      mathNeeds(expr.operand, out);
      return;
    case "MathBinary":
      mathNeeds(expr.left, out);
      mathNeeds(expr.right, out);
      return;
    case "MathCall":
      for (const arg of expr.args) mathNeeds(arg, out);
      return;
  }
}

function orderNeeds(order: OrderKey[], out: string[]): void {
  for (const key of order) if (key.kind === "OrderByValueVar") out.push(key.varName);
}

function containerUsage(c: SelectionContainer, usage: Usage): void {
  orderNeeds(c.order, usage.needs);
  if (c.filter !== undefined) filterNeeds(c.filter, usage.needs);
  const facets = c.directives.facets;
  if (facets !== undefined) {
    for (const key of facets.keys) if (key.asVar !== undefined) usage.defines.push(key.asVar);
  }
  for (const s of c.selections) selectionUsage(s, usage);
}

function selectionUsage(s: Selection, usage: Usage): void {
  if (s.asVar !== undefined) usage.defines.push(s.asVar);
  switch (s.kind) {
    case "PredicateField":
    case "ExpandField":
      if (s.kind === "ExpandField" && s.target.kind === "ExpandValueVar") usage.needs.push(s.target.varName);
      containerUsage(s, usage);
      return;
    case "CountField":
      if (s.filter !== undefined) filterNeeds(s.filter, usage.needs);
      return;
    case "ValueVarField":
      usage.needs.push(s.varName);
      return;
    case "AggregateField":
      if (s.target.kind === "ValueVar") usage.needs.push(s.target.varName);
      return;
    case "MathField":
      mathNeeds(s.expr, usage.needs);
      return;
    case "UidField":
    case "CheckPwdField":
      return;
  }
}

/**
 * Variables a block defines (in order of appearance, repeated if defined twice) and reads
 * (de-duplicated, in order of appearance).
 */
export function collectVariables(block: Omit<QueryBlock, "defines" | "needs">): Usage {
  const usage: Usage = { defines: [], needs: [] };
  if (block.asVar !== undefined) usage.defines.push(block.asVar);
  if (block.func !== undefined) functionNeeds(block.func, usage.needs);
  if (block.shortest !== undefined) {
    // Dgraph only reads the first variable of from/to.
    if (block.shortest.from.vars.length > 0) usage.needs.push(block.shortest.from.vars[0]);
    if (block.shortest.to.vars.length > 0) usage.needs.push(block.shortest.to.vars[0]);
  }
  containerUsage(block, usage);
  if (usage.needs.length > 1) usage.needs = [...new Set(usage.needs)];
  return usage;
}

function sortedUnique(names: string[]): string[] {
  return [...new Set(names)].sort();
}

/**
 * Dgraph's `checkDependency`: all blocks' definitions against all uses (plus variables the caller
 * needs, e.g. an upsert's mutations). Messages match Dgraph's, including Go's `[a b]` list format.
 */
export function checkVariableDependencies(blocks: QueryBlock[], extraNeeds: readonly string[]): void {
  const allDefines: string[] = [];
  const allNeeds: string[] = [...extraNeeds];
  for (const b of blocks) {
    allDefines.push(...b.defines);
    allNeeds.push(...b.needs);
  }
  if (allDefines.length === 0 && allNeeds.length === 0) return;
  const needs = sortedUnique(allNeeds);
  const defines = sortedUnique(allDefines);
  if (defines.length !== allDefines.length) throw plainError("Some variables are declared multiple times.");
  const listing = `\nDefined:[${defines.join(" ")}]\nUsed:[${needs.join(" ")}]\n`;
  if (defines.length > needs.length) throw plainError(`Some variables are defined but not used${listing}`);
  if (defines.length < needs.length) throw plainError(`Some variables are used but not defined${listing}`);
  for (let i = 0; i < defines.length; i++) {
    if (defines[i] !== needs[i]) throw plainError(`Variables are not used properly. ${listing}`);
  }
}

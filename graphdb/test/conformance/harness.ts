/**
 * Table-driven DQL conformance harness. Every case runs against a fresh engine (temp dir): optional
 * schema, then data steps (RDF / JSON / upsert / alter), then one query whose parsed `data` JSON must
 * equal `expected` (or which must fail with `error` / `errorExact`).
 *
 * Expected values come from Dgraph's documented semantics (shared/reference/dgraph-dql.md §3–§5 and
 * Dgraph's source), never from running this engine. Cases the reference is silent on carry an
 * `// inferred:` comment.
 *
 * Templates: `{{label}}` in queries, N-Quads, JSON mutations and expected values is replaced by the
 * uid the engine assigned to blank node `_:label` (`"0x2a"`); `{{label:dec}}` gives it in decimal.
 *
 * Uid order: Dgraph assigns the uids of one request's blank nodes in no guaranteed order, while many
 * expected arrays depend on uid order (results are uid-ascending). The harness therefore checks, for
 * every RDF `set`, that the engine numbered blank nodes in order of first appearance — a premise of
 * the expected values, reported as "harness premise" when violated.
 */
import { expect, it } from "vitest";
import type { AlterOperation, GraphDB } from "../../src/index.ts";
import { openTestEngine } from "../engine/engine-fixture.ts";

export interface Step {
  /** RDF N-Quads to set. */
  set?: string;
  /** RDF N-Quads to delete. */
  del?: string;
  /** JSON set (a value, or JSON text when a string). */
  setJson?: unknown;
  /** JSON delete (a value, or JSON text when a string). */
  deleteJson?: unknown;
  /** Upsert query whose variables the mutation uses. */
  upsert?: string;
  /** `@if(...)` condition of the upsert mutation. */
  cond?: string;
  /** A schema change / drop instead of a mutation. */
  alter?: AlterOperation;
  /** The step must fail with a message containing this text. */
  error?: string;
  /** The step must fail with exactly this message. */
  errorExact?: string;
  /** Exact (sorted) keys of the response's `uids`. */
  uids?: string[];
  /** Every key of `uids` must match one of these, in sorted-key order. */
  uidsMatch?: RegExp[];
  /** Expected JSON of `data.queries` (templated). */
  queries?: unknown;
}

export interface Case {
  /** The behaviour under test. */
  name: string;
  schema?: string;
  /** Data: RDF N-Quads (one committed set) or a list of steps, each committed on its own. */
  data?: string | Step[];
  /** Shorthand for one JSON set mutation (after `data`). */
  json?: unknown;
  /** The DQL query; absent for cases that only check steps. */
  query?: string;
  /** DQL variables (`{"$a": "x"}`), templated. */
  vars?: Record<string, string>;
  debug?: boolean;
  /** The expected `data` object (templated). */
  expected?: unknown;
  /** Exact expected `data` JSON text (templated). */
  raw?: string;
  /** The query must fail with a message containing this text. */
  error?: string;
  /** The query must fail with exactly this message. */
  errorExact?: string;
  /** Compare arrays of scalars as multisets (list-valued predicates have no defined value order). */
  unorderedScalars?: boolean;
}

type Uids = Record<string, string>;

const TEMPLATE = /\{\{([A-Za-z0-9_.-]+)(:dec)?\}\}/g;

/** Replaces `{{label}}` / `{{label:dec}}` in a string. */
export function fill(text: string, uids: Uids): string {
  return text.replace(TEMPLATE, (_m, label: string, dec: string | undefined) => {
    const uid = uids[label];
    if (uid === undefined) throw new Error(`template: no uid for blank node _:${label}`);
    return dec ? BigInt(uid).toString(10) : uid;
  });
}

/** `fill` applied to every string of a JSON-like value. */
export function fillDeep(value: unknown, uids: Uids): unknown {
  if (typeof value === "string") return fill(value, uids);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, uids));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[fill(k, uids)] = fillDeep(v, uids);
    return out;
  }
  return value;
}

function sortScalarArrays(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(sortScalarArrays);
    if (items.every((v) => v === null || typeof v !== "object")) {
      return [...items].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
    }
    return items;
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = sortScalarArrays(v);
    return out;
  }
  return value;
}

/** Labels of `_:x` blank nodes in order of first appearance. */
function blankLabels(nquads: string): string[] {
  const seen: string[] = [];
  for (const m of nquads.matchAll(/_:([A-Za-z0-9_.-]+)/g)) if (!seen.includes(m[1])) seen.push(m[1]);
  return seen;
}

async function expectFailure(run: () => Promise<unknown>, contains?: string, exact?: string): Promise<void> {
  let failure: unknown;
  try {
    await run();
  } catch (e) {
    failure = e;
  }
  expect(failure, "expected an error, got success").toBeInstanceOf(Error);
  const message = (failure as Error).message;
  if (exact !== undefined) expect(message).toBe(exact);
  if (contains !== undefined) expect(message).toContain(contains);
}

async function runStep(engine: GraphDB, step: Step, uids: Uids): Promise<void> {
  const run = async () => {
    if (step.alter) {
      await engine.alter(step.alter);
      return undefined;
    }
    const setJson =
      step.setJson === undefined
        ? undefined
        : typeof step.setJson === "string"
          ? fill(step.setJson, uids)
          : fillDeep(step.setJson, uids);
    const deleteJson =
      step.deleteJson === undefined
        ? undefined
        : typeof step.deleteJson === "string"
          ? fill(step.deleteJson, uids)
          : fillDeep(step.deleteJson, uids);
    return engine.mutate({
      query: step.upsert === undefined ? undefined : fill(step.upsert, uids),
      mutations: [
        {
          setNquads: step.set === undefined ? undefined : fill(step.set, uids),
          delNquads: step.del === undefined ? undefined : fill(step.del, uids),
          setJson,
          deleteJson,
          cond: step.cond,
        },
      ],
      commitNow: true,
    });
  };
  if (step.error !== undefined || step.errorExact !== undefined) {
    await expectFailure(run, step.error, step.errorExact);
    return;
  }
  const res = await run();
  if (res === undefined) return;
  if (step.uids !== undefined) expect(Object.keys(res.uids).sort()).toEqual([...step.uids].sort());
  if (step.uidsMatch !== undefined) {
    const keys = Object.keys(res.uids).sort();
    expect(keys).toHaveLength(step.uidsMatch.length);
    for (const [i, k] of keys.entries()) expect(k).toMatch(step.uidsMatch[i]);
  }
  for (const [label, uid] of Object.entries(res.uids)) {
    expect(uid, `uid of ${label}`).toMatch(/^0x[0-9a-f]+$/);
    uids[label] = uid;
  }
  if (step.set !== undefined && step.upsert === undefined) {
    const order = blankLabels(step.set).map((l) => BigInt(res.uids[l] ?? uids[l] ?? "0"));
    const ascending = order.every((u, i) => i === 0 || order[i - 1] < u);
    if (!ascending) {
      throw new Error(
        `harness premise: blank nodes were not numbered in order of first appearance: ${JSON.stringify(res.uids)}`,
      );
    }
  }
  if ("queries" in step) {
    expect(JSON.parse(res.queriesJson ?? "null")).toEqual(fillDeep(step.queries, uids));
  }
}

function stepsOf(c: Case): Step[] {
  const steps: Step[] = [];
  if (typeof c.data === "string") steps.push({ set: c.data });
  else if (c.data) steps.push(...c.data);
  if (c.json !== undefined) steps.push({ setJson: c.json });
  return steps;
}

export async function runCase(c: Case): Promise<void> {
  const t = openTestEngine();
  try {
    if (c.schema !== undefined) await t.engine.alter({ schema: c.schema });
    const uids: Uids = {};
    for (const step of stepsOf(c)) await runStep(t.engine, step, uids);
    if (c.query === undefined) return;
    const query = fill(c.query, uids);
    const vars = c.vars && (fillDeep(c.vars, uids) as Record<string, string>);
    const run = () => t.engine.query({ query, vars, debug: c.debug });
    if (c.error !== undefined || c.errorExact !== undefined) {
      await expectFailure(run, c.error, c.errorExact);
      return;
    }
    const res = await run();
    if (c.raw !== undefined) expect(res.json).toBe(fill(c.raw, uids));
    if ("expected" in c) {
      const actual = JSON.parse(res.json) as unknown;
      const expected = fillDeep(c.expected, uids);
      if (c.unorderedScalars) expect(sortScalarArrays(actual)).toEqual(sortScalarArrays(expected));
      else expect(actual).toEqual(expected);
    }
  } finally {
    await t.cleanup();
  }
}

/** Registers one vitest case per table row. */
export function table(cases: Case[]): void {
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`duplicate case name: ${c.name}`);
    names.add(c.name);
    it(c.name, () => runCase(c));
  }
}

/** Byte-order comparison (Go's sort of strings). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

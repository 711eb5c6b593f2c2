/**
 * Per-query budgets in the executor: a deadline honoured inside long loops (not only between levels),
 * the query-edge and normalize-node limits, the response budget and how closely it tracks what is
 * written, and the async driver giving the event loop back while a heavy query runs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { GraphReader } from "../../src/core/graph-reader.ts";
import { parseDql } from "../../src/dql/parser.ts";
import { executeQueryAsync, type QueryOptions } from "../../src/query/executor.ts";
import { type EngineGraph, engineGraph, type Triple } from "./engine-graph.ts";
import { execute } from "./executor-run.ts";

function failure(g: GraphReader, query: string, opts: QueryOptions): { message: string; ms: number } {
  const started = performance.now();
  try {
    execute(g, query, opts);
  } catch (e) {
    return { message: (e as Error).message, ms: performance.now() - started };
  }
  throw new Error(`query succeeded: ${query}`);
}

/** 20,000 nodes whose `text` is 300 letters a/b. */
const TEXTS = 20_000;
/** A fuzzy match against a 300-letter text: 90,000 Levenshtein cells per value, seconds for them all. */
const SLOW_FILTER = `@filter(match(text, "${"ba".repeat(150)}", 300))`;

/** Two nodes per layer, each linked to both nodes of the next layer, the last layer back to the first. */
function diamondRing(layers: number, first = 1): Triple[] {
  const uid = (layer: number, side: number) => first + 2 * (layer % layers) + side;
  const out: Triple[] = [];
  for (let i = 0; i < layers; i++) {
    for (const side of [0, 1]) {
      out.push({ s: uid(i, side), p: "name", value: `n${i}${side === 0 ? "a" : "b"}` });
      for (const to of [0, 1]) out.push({ s: uid(i, side), p: "next", uid: uid(i + 1, to) });
    }
  }
  return out;
}

let texts: EngineGraph;
let rings: EngineGraph;

beforeAll(async () => {
  const letters = (i: number) => {
    let s = "";
    for (let k = 0; k < 300; k++) s += (i * 7 + k * 13) % 5 < 2 ? "a" : "b";
    return s;
  };
  const triples: Triple[] = [];
  for (let i = 1; i <= TEXTS; i++) triples.push({ s: i, p: "text", value: letters(i) });
  texts = await engineGraph("text: string @index(trigram) .", triples);
  rings = await engineGraph(
    [
      "name: string @index(exact) .",
      "next: [uid] .",
      "title: string .",
      "tag: [uid] .",
      "label: string .",
    ].join("\n"),
    [
      ...diamondRing(40, 1),
      ...diamondRing(8, 1001),
      // 30 items with 30 tags each, for @normalize cross products.
      ...Array.from({ length: 30 }, (_, i): Triple[] => [
        { s: 2001 + i, p: "title", value: `item ${i}` },
        ...Array.from({ length: 30 }, (_, k): Triple => ({ s: 2001 + i, p: "tag", uid: 3001 + k })),
      ]).flat(),
      ...Array.from({ length: 30 }, (_, k): Triple => ({ s: 3001 + k, p: "label", value: `tag ${k}` })),
    ],
  );
}, 60_000);

describe("query budget: time", () => {
  it("stops a long filter within ~100 ms of its deadline, inside the loop", () => {
    const { message, ms } = failure(texts.reader, `{ q(func: has(text)) ${SLOW_FILTER} { uid } }`, {
      timeoutMs: 100,
    });
    expect(message).toBe(": context deadline exceeded");
    expect(ms).toBeLessThan(250);
  });

  it("gives the event loop back every few ms while a heavy query runs (async driver)", async () => {
    const doc = parseDql(`{ q(func: has(text)) ${SLOW_FILTER} { uid } }`);
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    let message = "";
    try {
      await executeQueryAsync(texts.reader, doc, { timeoutMs: 400 });
    } catch (e) {
      message = (e as Error).message;
    } finally {
      clearInterval(timer);
    }
    expect(message).toBe(": context deadline exceeded");
    expect(performance.now() - started).toBeLessThan(600);
    expect(longestGap).toBeLessThan(100);
  });
});

describe("query budget: edges", () => {
  it("fails a @recurse past the query-edge limit with Dgraph's text", () => {
    const { message } = failure(
      rings.reader,
      "{ q(func: uid(1)) @recurse(depth: 100, loop: true) { name next } }",
      {
        limits: { queryEdges: 50 },
      },
    );
    expect(message).toMatch(
      /^: Exceeded query edge limit = 50\. Found \d+ edges\. Give @recurse a smaller depth, or filter or paginate/,
    );
  });

  it("counts every edge followed, so the same walk passes under a higher limit", () => {
    const r = JSON.parse(
      execute(rings.reader, "{ q(func: uid(1001)) @recurse(depth: 100) { name next } }", {
        limits: { queryEdges: 32 },
      }).json,
    );
    expect(r.q[0].name).toBe("n0a");
  });
});

describe("query budget: response size", () => {
  it("refuses a ring of diamonds whose result doubles per layer, fast and without building it", () => {
    const { message, ms } = failure(
      rings.reader,
      "{ q(func: uid(1)) @recurse(depth: 100) { name next } }",
      {},
    );
    expect(message).toMatch(
      /^while running ToJson: estimated response size: \d+ is bigger than threshold: 134217728\. Ask for fewer nodes/,
    );
    expect(ms).toBeLessThan(500);
  });

  it("refuses nested selections (not only @recurse) whose result grows with paths, fast", () => {
    const nest = (d: number): string => (d === 0 ? "" : `next { name ${nest(d - 1)} }`);
    const { message, ms } = failure(rings.reader, `{ q(func: uid(1)) { name ${nest(30)} } }`, {});
    expect(message).toMatch(/^while running ToJson: estimated response size: \d+ is bigger than threshold/);
    expect(ms).toBeLessThan(500);
  });

  it("flattens (@normalize) a ring of diamonds node by node, not path by path", () => {
    const nest = (d: number): string => (d === 0 ? "" : `next { name ${nest(d - 1)} }`);
    const started = performance.now();
    const r = JSON.parse(
      execute(rings.reader, `{ q(func: uid(1)) @normalize { n: name ${nest(32)} } }`).json,
    );
    expect(r).toEqual({ q: [{ n: "n0a" }] });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("measures the text as it is written: a limit 5% above its size passes, 5% below fails", () => {
    for (const query of [
      "{ q(func: uid(1001)) @recurse(depth: 100) { name next } }",
      "{ q(func: has(title)) { title tag { label } } }",
      "{ a(func: has(title)) { t: title tag @facets { uid l: label } count(tag) } b(func: uid(1)) { name } }",
    ]) {
      const size = execute(rings.reader, query).json.length;
      const within = (responseBytes: number) => () =>
        execute(rings.reader, query, { limits: { responseBytes } });
      expect(within(Math.ceil(size * 1.05))).not.toThrow();
      expect(within(Math.floor(size * 0.95))).toThrow(/^while running ToJson: estimated response size/);
    }
  });

  it("charges @normalize for the objects it holds while flattening, not only for the text", () => {
    const query = "{ q(func: has(title), first: 3) @normalize { t: title tag { l: label } } }";
    const size = execute(rings.reader, query).json.length;
    const within = (responseBytes: number) => () =>
      execute(rings.reader, query, { limits: { responseBytes } });
    expect(within(size * 10)).not.toThrow();
    expect(within(size)).toThrow(/^while running ToJson: estimated response size/);
  });

  it("bounds @normalize by the normalize-node limit, per merge as Dgraph counts", () => {
    const query = "{ q(func: has(title)) @normalize { t: title tag { l: label } } }";
    expect(JSON.parse(execute(rings.reader, query).json).q).toHaveLength(900);
    expect(failure(rings.reader, query, { limits: { normalizeNodes: 50 } }).message).toBe(
      "while running ToJson: Couldn't evaluate @normalize directive - too many results",
    );
  });
});

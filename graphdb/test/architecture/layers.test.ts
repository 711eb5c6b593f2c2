/**
 * graphdb's layers run one way: a file imports only from its own folder or from a layer below it.
 * The stack (top first) is the one the package README draws; a new folder must be placed in it here.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cycles, importEdges, sourceFiles } from "./import-graph.ts";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "../../src");

/** Top to bottom; folders on one line are siblings and may not import each other. */
const LAYERS: string[][] = [
  ["index.ts"],
  ["cli.ts"],
  ["query-limit-flags.ts", "tenant-limit-flags.ts", "listen-exposure.ts"],
  ["server"],
  ["graphql"],
  ["engine"],
  ["mutation"],
  ["query"],
  ["dql", "txn"],
  ["schema"],
  ["tokenizer", "posting"],
  ["types", "lex"],
  ["core"],
  ["store"],
  ["sched"],
];

const rank = new Map<string, number>(LAYERS.flatMap((names, i) => names.map((name) => [name, i] as const)));

/** A file's unit: its top-level folder, or itself when it sits at the top of src/. */
const unitOf = (file: string) => file.split("/")[0];

describe("graphdb import layers", () => {
  const edges = importEdges(SRC);

  it("places every file of src/ in a layer", () => {
    const unplaced = sourceFiles(SRC).filter((file) => !rank.has(unitOf(file)));
    expect(unplaced, "add the new folder to LAYERS (and to graphdb/README.md)").toEqual([]);
  });

  it("has no import from a lower layer up, or between siblings", () => {
    const upward = edges
      .filter((e) => unitOf(e.from) !== unitOf(e.to))
      .filter((e) => (rank.get(unitOf(e.from)) as number) >= (rank.get(unitOf(e.to)) as number))
      .map((e) => `${e.from} -> ${e.to}${e.typeOnly ? " (type)" : ""}`);
    expect(upward).toEqual([]);
  });

  it("has no cycle of imports, type-only imports included", () => {
    expect(cycles(edges)).toEqual([]);
  });

  it("resolves every relative import to a file of src/", () => {
    const files = new Set(sourceFiles(SRC));
    expect(edges.filter((e) => !files.has(e.to)).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });
});

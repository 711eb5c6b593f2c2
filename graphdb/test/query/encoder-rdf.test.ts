/**
 * respFormat=rdf (Dgraph's outputrdf.go): N-Quads per selection, selection by selection.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { GraphReader } from "../../src/core/graph-reader.ts";
import { peopleGraph } from "./executor-fixture.ts";
import { execute } from "./executor-run.ts";

let g: GraphReader;
beforeAll(async () => {
  g = (await peopleGraph()).reader;
});

function rdf(query: string): string {
  return execute(g, query, { respFormat: "rdf" }).rdf ?? "";
}

function rdfError(query: string): string {
  try {
    rdf(query);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected an error");
}

describe("encoder: rdf", () => {
  it("writes values with quoted numbers, then edges, then the nested selection", () => {
    expect(rdf("{ q(func: uid(1)) { name age alive score friend { name } } }")).toBe(
      [
        '<0x1> <name> "Alice" .',
        '<0x1> <age> "30" .',
        "<0x1> <alive> true .",
        '<0x1> <score> "1.500000" .',
        "<0x1> <friend> <0x2> .",
        "<0x1> <friend> <0x3> .",
        "<0x1> <friend> <0x4> .",
        '<0x2> <name> "Bob" .',
        '<0x3> <name> "Carol" .',
        '<0x4> <name> "Dave" .',
        "",
      ].join("\n"),
    );
  });

  it("writes uid edges only when they have a nested selection, and nothing for uid", () => {
    expect(rdf("{ q(func: uid(1)) { uid boss } }")).toBe("");
  });

  it("escapes strings as JSON and writes count(pred) and aliases", () => {
    expect(rdf("{ q(func: uid(6, 2)) { n: name count(friend) } }")).toBe(
      [
        '<0x2> <n> "Bob" .',
        '<0x6> <n> "Mallory \\u003cx\\u003e \\u0026 y" .',
        '<0x2> <count(friend)> "2" .',
        '<0x6> <count(friend)> "0" .',
        "",
      ].join("\n"),
    );
  });

  it("is empty for an empty result", () => {
    expect(execute(g, '{ q(func: eq(name, "Nobody")) { name } }', { respFormat: "rdf" }).rdf).toBe("");
  });

  it("refuses count(uid), @normalize and checkpwd like Dgraph", () => {
    expect(rdfError("{ q(func: uid(1)) { count(uid) } }")).toBe(
      ": uid count is not supported in the rdf output format",
    );
    expect(rdfError("{ q(func: uid(1)) @normalize { n: name } }")).toBe(
      ": normalize directive is not supported in the rdf output format",
    );
    expect(rdfError('{ q(func: uid(1)) { checkpwd(pw, "x") } }')).toBe(
      ": chkpwd function is not supported in the rdf output format",
    );
  });
});

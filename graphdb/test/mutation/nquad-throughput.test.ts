import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Edge } from "../../src/mutation/edge.ts";
import { NQuadChunkParser } from "../../src/mutation/nquad-chunk-parser.ts";
import { parseNQuads } from "../../src/mutation/rdf-parser.ts";

const FREEBASE = "/work/shared/data/30kmoviedata.nq.gz";

function generatedLines(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    switch (i % 4) {
      case 0:
        lines.push(`_:n${i} <name> "Person number ${i}"@en .`);
        break;
      case 1:
        lines.push(`_:n${i} <friend> _:n${i - 1} .`);
        break;
      case 2:
        lines.push(`<0x${(i + 1).toString(16)}> <age> "${i % 90}"^^<xs:int> .`);
        break;
      default:
        lines.push(`_:n${i} <dgraph.type> "Person" .`);
    }
  }
  return lines.join("\n");
}

describe("N-Quad parsing throughput", () => {
  it("parses 200k generated lines at more than 200k lines per second", () => {
    const text = generatedLines(200_000);
    parseNQuads(text.slice(0, text.indexOf("\n", 1_000_000))); // warm up the scanner
    let best = 0;
    for (let round = 0; round < 3; round++) {
      const start = performance.now();
      const edges = parseNQuads(text);
      const seconds = (performance.now() - start) / 1000;
      expect(edges).toHaveLength(200_000);
      best = Math.max(best, edges.length / seconds);
    }
    console.log(
      `N-Quad parse rate: ${Math.round(best).toLocaleString("en-US")} lines/s (200k generated lines)`,
    );
    expect(best).toBeGreaterThan(200_000);
  });

  it("parses the whole 30k-movie Freebase file with iriAsBlank into 471,705 edges", () => {
    const text = gunzipSync(readFileSync(FREEBASE)).toString("utf8");
    const start = performance.now();
    const edges = parseNQuads(text, { iriAsBlank: true });
    const seconds = (performance.now() - start) / 1000;
    console.log(`Freebase parse rate: ${Math.round(edges.length / seconds).toLocaleString("en-US")} lines/s`);
    expect(edges).toHaveLength(471_705);
    expect(
      edges.find((e) => e.subject.kind === "blank" && e.subject.label === "/en/larry_fine_1902"),
    ).toBeDefined();
    const actor = edges.find((e) => e.predicate === "/film/performance/actor");
    expect(actor).toMatchObject({ object: { kind: "node", ref: { kind: "blank" } }, list: true });
    const character = edges.find(
      (e) =>
        e.predicate === "/film/performance/character" &&
        e.subject.kind === "blank" &&
        e.subject.label === "103032",
    );
    expect(character?.object).toEqual({ kind: "literal", type: "default", value: 'Walter "Teacher" Cole' });
  });

  it("gives the same edges when the Freebase file is fed in 64 KiB chunks", () => {
    const text = gunzipSync(readFileSync(FREEBASE)).toString("utf8");
    const parser = new NQuadChunkParser({ iriAsBlank: true });
    const edges: Edge[] = [];
    for (let at = 0; at < text.length; at += 65536) parser.push(text.slice(at, at + 65536), edges);
    parser.end(edges);
    expect(edges).toHaveLength(471_705);
    expect(edges[471_704]).toEqual(
      parseNQuads(text.slice(text.lastIndexOf("\n", text.length - 2) + 1), { iriAsBlank: true })[0],
    );
  });
});

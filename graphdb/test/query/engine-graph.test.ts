/**
 * The executor tests' fixture: triples rendered as N-Quads must reach the engine unchanged, values keeping
 * their types, strings their characters and facets their types.
 */
import { describe, expect, it } from "vitest";
import { engineGraph, toNQuads } from "./engine-graph.ts";

describe("engineGraph fixture", () => {
  it("stores tricky strings, typed values and facets as given", async () => {
    const tricky = 'q"uote \\ back\tslash\r\n\u0001\u007f \u2028 é \u{1F600}';
    const { reader } = await engineGraph(
      "s: string @lang .\nf: float .\nd: datetime .\nloc: geo .\nx: [uid] .\nraw: default .",
      [
        { s: 1, p: "s", value: tricky, facets: [{ key: "k", value: tricky, type: "string" }] },
        { s: 1, p: "s", value: "hé", lang: "fr" },
        { s: 1, p: "f", value: 2 },
        { s: 1, p: "d", value: "2006-01-02T15:04:05Z", type: "datetime" },
        { s: 1, p: "loc", value: { type: "Point", coordinates: [1.5, -2] } },
        { s: 1, p: "raw", value: 7 },
        { s: 1, p: "x", uid: 0x1f, facets: [{ key: "w", value: 2, type: "float" }] },
      ],
    );
    expect(reader.values("s", 1)).toEqual([
      {
        value: { type: "string", value: tricky },
        lang: "",
        facets: [{ key: "k", value: tricky, type: "string" }],
      },
      { value: { type: "string", value: "hé" }, lang: "fr" },
    ]);
    expect(reader.values("f", 1)).toEqual([{ value: { type: "float", value: 2 }, lang: "" }]);
    expect(reader.values("d", 1)[0].value).toEqual({ type: "datetime", value: "2006-01-02T15:04:05Z" });
    expect(reader.values("loc", 1)[0].value).toEqual({
      type: "geo",
      value: { type: "Point", coordinates: [1.5, -2] },
    });
    expect(reader.values("raw", 1)[0].value).toEqual({ type: "int", value: 7 });
    expect(Array.from(reader.uids("x", 1))).toEqual([0x1f]);
    expect(reader.edgeFacets("x", 1, 0x1f)).toEqual([{ key: "w", value: 2, type: "float" }]);
  });

  it("renders uids in hex, types as ^^ IRIs and float facets with a decimal point", () => {
    expect(
      toNQuads([
        { s: 255, p: "n", value: 1.5, facets: [{ key: "w", value: 3, type: "float" }] },
        { s: 1, p: "b", value: true },
        { s: 1, p: "e", uid: 16 },
      ]),
    ).toBe('<0xff> <n> "1.5"^^<xs:double> (w=3.0) .\n<0x1> <b> "true"^^<xs:boolean> .\n<0x1> <e> <0x10> .');
  });
});

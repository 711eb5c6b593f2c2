import { describe, expect, it } from "vitest";
import { PREDEFINED_PREDICATES, PREDEFINED_TYPES } from "../../src/schema/predefined.ts";
import { renderSchema } from "../../src/schema/schema-output.ts";
import { parseSchema } from "../../src/schema/schema-parser.ts";

const USER = parseSchema(`name: string @index(term, exact) @lang .
friend: [uid] @reverse @count .
email: string @index(exact) @upsert .
type Person {
  name
  friend
}
`);

describe("renderSchema", () => {
  it("renders schema {} like the reference example: sorted, false fields omitted, Dgraph key order", () => {
    const out = renderSchema([...USER.predicates, PREDEFINED_PREDICATES[0]], USER.types);
    expect(JSON.stringify(out)).toBe(
      JSON.stringify({
        schema: [
          { predicate: "dgraph.type", type: "string", index: true, tokenizer: ["exact"], list: true },
          { predicate: "email", type: "string", index: true, tokenizer: ["exact"], upsert: true },
          { predicate: "friend", type: "uid", reverse: true, count: true, list: true },
          { predicate: "name", type: "string", index: true, tokenizer: ["term", "exact"], lang: true },
        ],
        types: [{ fields: [{ name: "name" }, { name: "friend" }], name: "Person" }],
      }),
    );
  });

  it("includes the pre-defined predicates and types when given", () => {
    const out = renderSchema(
      [...USER.predicates, ...PREDEFINED_PREDICATES],
      [...USER.types, ...PREDEFINED_TYPES],
    );
    expect(out.schema!.map((p) => p.predicate)).toContain("dgraph.graphql.p_query");
    expect(out.types!.map((t) => t.name)).toEqual([
      "Person",
      "dgraph.graphql",
      "dgraph.graphql.persisted_query",
      "dgraph.namespace",
    ]);
  });

  it("selects predicates and fields for schema(pred: [...]) { ... }, without a types key", () => {
    const out = renderSchema(USER.predicates, USER.types, {
      predicates: ["name", "friend", "nope"],
      fields: ["type", "index"],
    });
    expect(JSON.stringify(out)).toBe(
      JSON.stringify({
        schema: [
          { predicate: "friend", type: "uid" },
          { predicate: "name", type: "string", index: true },
        ],
      }),
    );
  });

  it("shows no_conflict and unique when set, selecting noconflict by either name", () => {
    const p = parseSchema("email: string @index(exact) @noconflict @unique .").predicates;
    expect(renderSchema(p, [], { fields: ["noconflict", "unique"] })).toEqual({
      schema: [{ predicate: "email", no_conflict: true, unique: true }],
    });
  });

  it("renders only types for schema(type: ...), with no schema key", () => {
    expect(renderSchema(USER.predicates, USER.types, { types: ["Person"] })).toEqual({
      types: [{ fields: [{ name: "name" }, { name: "friend" }], name: "Person" }],
    });
    expect(renderSchema(USER.predicates, USER.types, { types: ["Nope"] })).toEqual({});
  });

  it("omits the types key when there are no types, and the schema key when there are no predicates", () => {
    expect(Object.keys(renderSchema(USER.predicates, []))).toEqual(["schema"]);
    expect(Object.keys(renderSchema([], USER.types))).toEqual(["types"]);
  });

  it("lists vector index options as index_specs", () => {
    const parsed = parseSchema('vec: float32vector @index(hnsw(metric: "cosine")) .');
    expect(renderSchema(parsed.predicates, [], {}, parsed.indexSpecs).schema![0]).toEqual({
      predicate: "vec",
      type: "float32vector",
      index: true,
      tokenizer: ["hnsw"],
      index_specs: [{ name: "hnsw", options: [{ key: "metric", value: "cosine" }] }],
    });
  });
});

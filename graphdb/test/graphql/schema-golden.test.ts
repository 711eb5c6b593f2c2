/**
 * Golden schema tests: input schemas in the spirit of Dgraph's schemagen fixtures, with the generated API
 * compared structurally (type → fields with arguments and types, enum values, Query/Mutation signatures,
 * DQL schema lines) against what Dgraph v25 generates for them (reference §1–§3.1).
 */
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isObjectType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { buildGraphQLSchema } from "../../src/graphql/schema/build-graphql-schema.ts";

interface Golden {
  schema: GraphQLSchema;
  dql: string[];
  generated: string;
  /** Fields of a type or input as `name → (args)Type`; undefined when the type does not exist. */
  f(name: string): Record<string, string> | undefined;
  /** Values of an enum. */
  v(name: string): string[] | undefined;
  q: Record<string, string>;
  m: Record<string, string>;
  s: Record<string, string>;
}

function golden(sdl: string): Golden {
  const { schema, dqlSchema, generatedSchema } = buildGraphQLSchema(sdl);
  const f = (name: string) => {
    const type = schema.getType(name);
    if (!type) return undefined;
    if (!(isObjectType(type) || isInputObjectType(type))) throw new Error(`${name} has no fields`);
    const out: Record<string, string> = {};
    for (const [n, x] of Object.entries((type as GraphQLObjectType | GraphQLInputObjectType).getFields())) {
      const args = "args" in x ? (x as GraphQLField<unknown, unknown>).args : [];
      const a = args.length ? `(${args.map((y: GraphQLArgument) => `${y.name}: ${y.type}`).join(", ")})` : "";
      out[n] = `${a}${String(x.type)}`;
    }
    return out;
  };
  const v = (name: string) => {
    const type = schema.getType(name);
    if (!type) return undefined;
    if (!isEnumType(type)) throw new Error(`${name} is not an enum`);
    return type.getValues().map((x) => x.name);
  };
  return {
    schema,
    dql: dqlSchema.split("\n"),
    generated: generatedSchema,
    f,
    v,
    q: f("Query") ?? {},
    m: f("Mutation") ?? {},
    s: f("Subscription") ?? {},
  };
}

const crud = (T: string, order = true, upsert = false) => {
  const t = T.charAt(0).toLowerCase() + T.slice(1);
  const list = `(filter: ${T}Filter${order ? `, order: ${T}Order` : ""}, first: Int, offset: Int)[${T}]`;
  return {
    query: { [`query${T}`]: list, [`aggregate${T}`]: `(filter: ${T}Filter)${T}AggregateResult` },
    mutation: {
      [`add${T}`]: `(input: [Add${T}Input!]!${upsert ? ", upsert: Boolean" : ""})Add${T}Payload`,
      [`update${T}`]: `(input: Update${T}Input!)Update${T}Payload`,
      [`delete${T}`]: `(filter: ${T}Filter!)Delete${T}Payload`,
    },
    payload: { [t]: list, numUids: "Int" },
    deletePayload: { [t]: list, msg: "String", numUids: "Int" },
  };
};

describe("golden: scalars", () => {
  it("scalars: every scalar maps to its DQL type, Refs, Patch and AggregateResult (no @search)", () => {
    const g = golden(`
type Reading {
  id: ID!
  label: String!
  count: Int
  total: Int64
  ratio: Float
  ok: Boolean
  at: DateTime
  notes: [String]
  samples: [Float!]!
}`);
    expect(g.f("AggregateResult")).toBeUndefined();
    expect(g.f("ReadingAggregateResult")).toEqual({
      count: "Int",
      labelMin: "String",
      labelMax: "String",
      countMin: "Int",
      countMax: "Int",
      countSum: "Int",
      countAvg: "Float",
      totalMin: "Int64",
      totalMax: "Int64",
      totalSum: "Int64",
      totalAvg: "Float",
      ratioMin: "Float",
      ratioMax: "Float",
      ratioSum: "Float",
      ratioAvg: "Float",
      atMin: "DateTime",
      atMax: "DateTime",
    });
    expect(g.v("ReadingOrderable")).toEqual(["label", "count", "total", "ratio", "at"]);
    expect(g.v("ReadingHasFilter")).toEqual([
      "label",
      "count",
      "total",
      "ratio",
      "ok",
      "at",
      "notes",
      "samples",
    ]);
    expect(g.f("AddReadingInput")).toEqual({
      label: "String!",
      count: "Int",
      total: "Int64",
      ratio: "Float",
      ok: "Boolean",
      at: "DateTime",
      notes: "[String]",
      samples: "[Float!]!",
    });
    expect(g.f("ReadingPatch")).toEqual({
      label: "String",
      count: "Int",
      total: "Int64",
      ratio: "Float",
      ok: "Boolean",
      at: "DateTime",
      notes: "[String]",
      samples: "[Float!]",
    });
    expect(g.f("ReadingFilter")).toEqual({
      id: "[ID!]",
      has: "[ReadingHasFilter]",
      and: "[ReadingFilter]",
      or: "[ReadingFilter]",
      not: "ReadingFilter",
    });
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "<Reading.label>: string .",
        "<Reading.count>: int .",
        "<Reading.total>: int .",
        "<Reading.ratio>: float .",
        "<Reading.ok>: bool .",
        "<Reading.at>: datetime .",
        "<Reading.notes>: [string] .",
        "<Reading.samples>: [float] .",
      ]),
    );
  });

  it("scalars: a type without an ID has no get query and no id filter (fixture no-id-field)", () => {
    const g = golden("type Note { text: String  stars: Int }");
    const c = crud("Note");
    expect(g.q).toEqual(c.query);
    expect(g.m).toEqual(c.mutation);
    expect(g.f("NoteFilter")).toEqual({
      has: "[NoteHasFilter]",
      and: "[NoteFilter]",
      or: "[NoteFilter]",
      not: "NoteFilter",
    });
    expect(g.f("NoteRef")).toEqual({ text: "String", stars: "Int" });
  });

  it("scalars: Boolean-only type has no orderables, so no order argument and no <T>Order", () => {
    const g = golden("type Flag { id: ID!  on: Boolean  tags: [String] }");
    const c = crud("Flag", false);
    expect(g.q).toEqual({ getFlag: "(id: ID!)Flag", ...c.query });
    expect(g.f("FlagOrder")).toBeUndefined();
    expect(g.v("FlagOrderable")).toBeUndefined();
    expect(g.f("AddFlagPayload")).toEqual(c.payload);
    expect(g.f("DeleteFlagPayload")).toEqual(c.deletePayload);
    expect(g.f("FlagAggregateResult")).toEqual({ count: "Int" });
  });

  it("scalars: a list of orderable scalars is not orderable and has no aggregates", () => {
    const g = golden("type Series { id: ID!  points: [Int]  names: [String!]  first: Int }");
    expect(g.v("SeriesOrderable")).toEqual(["first"]);
    expect(g.f("SeriesAggregateResult")).toEqual({
      count: "Int",
      firstMin: "Int",
      firstMax: "Int",
      firstSum: "Int",
      firstAvg: "Float",
    });
  });
});

describe("golden: naming and payloads", () => {
  it("naming: a type name with capitals lowercases only its first letter in payload fields", () => {
    const g = golden("type HTTPLog { id: ID!  path: String }");
    const c = crud("HTTPLog");
    expect(g.f("AddHTTPLogPayload")).toEqual(c.payload);
    expect(Object.keys(c.payload)).toContain("hTTPLog");
    expect(g.f("UpdateHTTPLogPayload")).toEqual(c.payload);
    expect(g.f("DeleteHTTPLogPayload")).toEqual(c.deletePayload);
    expect(g.q).toEqual({ getHTTPLog: "(id: ID!)HTTPLog", ...c.query });
    expect(g.m).toEqual(c.mutation);
    expect(g.f("UpdateHTTPLogInput")).toEqual({
      filter: "HTTPLogFilter!",
      set: "HTTPLogPatch",
      remove: "HTTPLogPatch",
    });
    expect(Object.entries(g.f("HTTPLogOrder") ?? {})).toEqual([
      ["asc", "HTTPLogOrderable"],
      ["desc", "HTTPLogOrderable"],
      ["then", "HTTPLogOrder"],
    ]);
  });

  it("naming: Query and Mutation fields follow type definition order, get/query/aggregate per type", () => {
    const g = golden("type B { id: ID!  n: Int }\ntype A { id: ID!  n: Int }");
    expect(Object.keys(g.q)).toEqual(["getB", "queryB", "aggregateB", "getA", "queryA", "aggregateA"]);
    expect(Object.keys(g.m)).toEqual(["addB", "updateB", "deleteB", "addA", "updateA", "deleteA"]);
  });

  it("naming: a nullable ID field is still the get argument and the Ref's id", () => {
    const g = golden("type Ticket { ticketId: ID  title: String! }");
    expect(g.q.getTicket).toBe("(ticketId: ID!)Ticket");
    expect(g.f("TicketRef")).toEqual({ ticketId: "ID", title: "String" });
    expect(g.f("TicketFilter")?.ticketId).toBe("[ID!]");
    expect(g.f("AddTicketInput")).toEqual({ title: "String!" });
  });
});

describe("golden: @id", () => {
  it("@id: a String @id alone is the required get argument, hash-indexed with @upsert", () => {
    const g = golden("type Country { code: String! @id  name: String }");
    expect(g.q.getCountry).toBe("(code: String!)Country");
    expect(g.m.addCountry).toBe("(input: [AddCountryInput!]!, upsert: Boolean)AddCountryPayload");
    expect(g.f("CountryFilter")).toEqual({
      code: "StringHashFilter",
      has: "[CountryHasFilter]",
      and: "[CountryFilter]",
      or: "[CountryFilter]",
      not: "CountryFilter",
    });
    expect(g.f("CountryPatch")).toEqual({ code: "String", name: "String" });
    expect(g.f("CountryRef")).toEqual({ code: "String", name: "String" });
    expect(g.dql).toContain("<Country.code>: string @index(hash) @upsert .");
  });

  it("@id: Int and Int64 @id fields get int indexes, their default filters and optional get arguments", () => {
    const g = golden("type Part { id: ID!  serial: Int! @id  batch: Int64 @id  name: String }");
    expect(g.q.getPart).toBe("(id: ID, serial: Int, batch: Int64)Part");
    expect(g.m.addPart).toBe("(input: [AddPartInput!]!, upsert: Boolean)AddPartPayload");
    expect(g.f("PartFilter")).toMatchObject({ id: "[ID!]", serial: "IntFilter", batch: "Int64Filter" });
    expect(g.f("AddPartInput")).toEqual({ serial: "Int!", batch: "Int64", name: "String" });
    expect(g.f("PartPatch")).toEqual({ serial: "Int", batch: "Int64", name: "String" });
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "<Part.serial>: int @index(int) @upsert .",
        "<Part.batch>: int @index(int) @upsert .",
      ]),
    );
  });

  it("@id: several @id fields and no ID make every get argument optional (fixture field-with-multiple-@id-fields)", () => {
    const g = golden(
      "type Account { email: String! @id  handle: String @id @search(by: [term])  bio: String }",
    );
    expect(g.q.getAccount).toBe("(email: String, handle: String)Account");
    expect(g.f("AccountFilter")).toMatchObject({
      email: "StringHashFilter",
      handle: "StringHashFilter_StringTermFilter",
    });
    expect(g.f("AccountFilter")?.id).toBeUndefined();
    expect(g.dql).toContain("<Account.handle>: string @index(hash, term) @upsert .");
  });

  it("@id: @id with exact search uses the exact index and filter, no hash (fixture exact-index-on-id-field)", () => {
    const g = golden("type Sku { code: String! @id @search(by: [exact])  price: Float }");
    expect(g.f("SkuFilter")?.code).toBe("StringExactFilter");
    expect(g.dql).toContain("<Sku.code>: string @index(exact) @upsert .");
    expect(g.q.getSku).toBe("(code: String!)Sku");
  });

  it("@id: a type whose only field is its @id has a Ref with that field non-null", () => {
    const g = golden("type Label { name: String! @id }\ntype Box { id: ID!  labels: [Label] }");
    expect(g.f("LabelRef")).toEqual({ name: "String!" });
    expect(g.f("AddBoxInput")).toEqual({ labels: "[LabelRef]" });
    expect(g.f("Box")).toMatchObject({
      labels: "(filter: LabelFilter, order: LabelOrder, first: Int, offset: Int)[Label]",
      labelsAggregate: "(filter: LabelFilter)LabelAggregateResult",
    });
  });
});

describe("golden: language tags (fixture language-tags)", () => {
  const g = golden(`
interface Named { title: String }
type Film implements Named {
  titleFr: String @dgraph(pred: "Named.title@fr")
  slug: String! @id
  slugDe: String @dgraph(pred: "Film.slug@de") @search(by: [term, exact])
  slugIt: String @dgraph(pred: "Film.slug@it") @search(by: [regexp])
  slugDeIt: String @dgraph(pred: "Film.slug@de:it")
  slugAny: String @dgraph(pred: "Film.slug@.")
  plot: String @dgraph(pred: "F.plot@en")
}`);

  it("@lang: multi-language fields are read-only, `@.` is not writable, both are queryable and aggregated", () => {
    expect(g.f("AddFilmInput")).toEqual({
      title: "String",
      titleFr: "String",
      slug: "String!",
      slugDe: "String",
      slugIt: "String",
      plot: "String",
    });
    expect(g.f("FilmRef")).toEqual({
      title: "String",
      titleFr: "String",
      slug: "String",
      slugDe: "String",
      slugIt: "String",
      plot: "String",
    });
    expect(g.v("FilmHasFilter")).toEqual(["title", "titleFr", "slug", "slugDe", "slugIt", "slugAny", "plot"]);
    expect(g.v("FilmOrderable")).toEqual(["title", "titleFr", "slug", "slugDe", "slugIt", "slugAny", "plot"]);
    expect(Object.keys(g.f("FilmAggregateResult") ?? {})).toEqual([
      "count",
      ...["title", "titleFr", "slug", "slugDe", "slugIt", "slugDeIt", "slugAny", "plot"].flatMap((x) => [
        `${x}Min`,
        `${x}Max`,
      ]),
    ]);
    expect(g.f("FilmFilter")).toMatchObject({
      slug: "StringHashFilter",
      slugDe: "StringExactFilter_StringTermFilter",
      slugIt: "StringRegExpFilter",
    });
    expect(g.f("Film")?.slugDeIt).toBe("String");
  });

  it("@lang: every predicate read with a language tag is @lang in DQL, indexes merged", () => {
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "<Named.title>: string @lang .",
        "<Film.slug>: string @index(hash, term, exact, trigram) @upsert @lang .",
        "<F.plot>: string @lang .",
      ]),
    );
    expect(g.f("AddNamedPayload")).toBeUndefined();
  });
});

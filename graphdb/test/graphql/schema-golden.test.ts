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

describe("golden: @search", () => {
  it("@search: every String argument has its filter input and DQL index (fixture searchables)", () => {
    const g = golden(`
type Doc {
  id: ID!
  h: String @search(by: [hash])
  e: String @search(by: [exact])
  t: String @search(by: [term])
  ft: String @search(by: [fulltext])
  tri: String @search(by: [trigram])
  re: String @search(by: [regexp])
  dflt: String @search
  empty: String @search(by: [])
}`);
    expect(g.f("DocFilter")).toEqual({
      id: "[ID!]",
      h: "StringHashFilter",
      e: "StringExactFilter",
      t: "StringTermFilter",
      ft: "StringFullTextFilter",
      tri: "StringRegExpFilter",
      re: "StringRegExpFilter",
      dflt: "StringTermFilter",
      empty: "StringTermFilter",
      has: "[DocHasFilter]",
      and: "[DocFilter]",
      or: "[DocFilter]",
      not: "DocFilter",
    });
    expect(g.f("StringExactFilter")).toEqual({
      eq: "String",
      in: "[String]",
      le: "String",
      lt: "String",
      ge: "String",
      gt: "String",
      between: "StringRange",
    });
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "<Doc.h>: string @index(hash) .",
        "<Doc.e>: string @index(exact) .",
        "<Doc.t>: string @index(term) .",
        "<Doc.ft>: string @index(fulltext) .",
        "<Doc.tri>: string @index(trigram) .",
        "<Doc.re>: string @index(trigram) .",
        "<Doc.dflt>: string @index(term) .",
      ]),
    );
  });

  it("@search: numeric and Boolean arguments (Int/Int64/Float filters with in and between)", () => {
    const g = golden(`
type Stat { id: ID!  i: Int @search(by: [int])  l: Int64 @search(by: [int64])  f: Float @search(by: [float])  b: Boolean @search(by: [bool])  l2: Int64 @search  f2: Float @search }`);
    expect(g.f("StatFilter")).toMatchObject({
      i: "IntFilter",
      l: "Int64Filter",
      f: "FloatFilter",
      b: "Boolean",
      l2: "Int64Filter",
      f2: "FloatFilter",
    });
    for (const [name, t] of [
      ["IntFilter", "Int"],
      ["Int64Filter", "Int64"],
      ["FloatFilter", "Float"],
    ]) {
      expect(g.f(name)).toEqual({
        eq: t,
        in: `[${t}]`,
        le: t,
        lt: t,
        ge: t,
        gt: t,
        between: `${t}Range`,
      });
      expect(g.f(`${t}Range`)).toEqual({ min: `${t}!`, max: `${t}!` });
    }
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "<Stat.i>: int @index(int) .",
        "<Stat.l>: int @index(int) .",
        "<Stat.f>: float @index(float) .",
        "<Stat.b>: bool @index(bool) .",
      ]),
    );
  });

  it("@search: DateTime year/month/day/hour each map to DateTimeFilter and their index", () => {
    const g = golden(`
type Event { id: ID!  y: DateTime @search(by: [year])  mo: DateTime @search(by: [month])  d: DateTime @search(by: [day])  h: DateTime @search(by: [hour]) }`);
    expect(g.f("EventFilter")).toMatchObject({
      y: "DateTimeFilter",
      mo: "DateTimeFilter",
      d: "DateTimeFilter",
      h: "DateTimeFilter",
    });
    expect(g.f("DateTimeFilter")?.between).toBe("DateTimeRange");
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "<Event.y>: datetime @index(year) .",
        "<Event.mo>: datetime @index(month) .",
        "<Event.d>: datetime @index(day) .",
        "<Event.h>: datetime @index(hour) .",
      ]),
    );
  });

  it("@search: merged filters are named in sorted argument order with the parts' fields", () => {
    const g = golden(`
type Page { id: ID!  a: String @search(by: [exact, fulltext])  b: String @search(by: [regexp, term])  c: String @search(by: [hash, fulltext, regexp]) }`);
    expect(g.f("PageFilter")).toMatchObject({
      a: "StringExactFilter_StringFullTextFilter",
      b: "StringRegExpFilter_StringTermFilter",
      c: "StringFullTextFilter_StringHashFilter_StringRegExpFilter",
    });
    expect(Object.keys(g.f("StringExactFilter_StringFullTextFilter") ?? {})).toEqual([
      "eq",
      "in",
      "le",
      "lt",
      "ge",
      "gt",
      "between",
      "alloftext",
      "anyoftext",
    ]);
    expect(g.f("StringRegExpFilter_StringTermFilter")).toEqual({
      regexp: "String",
      allofterms: "String",
      anyofterms: "String",
    });
    expect(g.dql).toContain("<Page.c>: string @index(hash, fulltext, trigram) .");
  });

  it("@search: enums get hash always, <E>_hash or <E>_exact filters when searched (fixture single-type-with-enum)", () => {
    const g = golden(`
enum Level { LOW MID HIGH }
type Task { id: ID!  level: Level  urgency: Level @search  rank: Level @search(by: [exact])  marks: [Level] @search(by: [hash]) }`);
    expect(g.f("TaskFilter")).toEqual({
      id: "[ID!]",
      urgency: "Level_hash",
      rank: "Level_exact",
      marks: "Level_hash",
      has: "[TaskHasFilter]",
      and: "[TaskFilter]",
      or: "[TaskFilter]",
      not: "TaskFilter",
    });
    expect(g.f("Level_hash")).toEqual({ eq: "Level", in: "[Level]" });
    expect(g.f("Level_exact")).toEqual({
      eq: "Level",
      in: "[Level]",
      le: "Level",
      lt: "Level",
      ge: "Level",
      gt: "Level",
      between: "Level",
    });
    expect(g.v("TaskOrderable")).toBeUndefined();
    expect(g.f("AddTaskInput")).toEqual({
      level: "Level",
      urgency: "Level",
      rank: "Level",
      marks: "[Level]",
    });
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "<Task.level>: string @index(hash) .",
        "<Task.urgency>: string @index(hash) .",
        "<Task.rank>: string @index(hash, exact) .",
        "<Task.marks>: [string] @index(hash) .",
      ]),
    );
  });

  it("@search: geo fields get geo filters, Refs and the geo index (fixture geo-type)", () => {
    const g = golden(`
type Site { id: ID!  name: String!  at: Point @search  zone: Polygon @search(by: [polygon])  zones: MultiPolygon @search(by: [multiPolygon])  spot: Point }`);
    expect(g.f("SiteFilter")).toEqual({
      id: "[ID!]",
      at: "PointGeoFilter",
      zone: "PolygonGeoFilter",
      zones: "PolygonGeoFilter",
      has: "[SiteHasFilter]",
      and: "[SiteFilter]",
      or: "[SiteFilter]",
      not: "SiteFilter",
    });
    expect(g.f("AddSiteInput")).toEqual({
      name: "String!",
      at: "PointRef",
      zone: "PolygonRef",
      zones: "MultiPolygonRef",
      spot: "PointRef",
    });
    expect(g.v("SiteHasFilter")).toEqual(["name", "at", "zone", "zones", "spot"]);
    expect(g.v("SiteOrderable")).toEqual(["name"]);
    expect(g.f("PointGeoFilter")).toEqual({ near: "NearFilter", within: "WithinFilter" });
    expect(g.f("PolygonGeoFilter")).toEqual({
      near: "NearFilter",
      within: "WithinFilter",
      contains: "ContainsFilter",
      intersects: "IntersectsFilter",
    });
    expect(g.f("PointRef")).toEqual({ longitude: "Float!", latitude: "Float!" });
    expect(g.f("Site")).toMatchObject({ at: "Point", zone: "Polygon", zones: "MultiPolygon" });
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "<Site.at>: geo @index(geo) .",
        "<Site.zone>: geo @index(geo) .",
        "<Site.zones>: geo @index(geo) .",
        "<Site.spot>: geo .",
      ]),
    );
  });
});

describe("golden: edges and nested arguments", () => {
  it("@hasInverse: declared on one side, both sides edge Refs and arguments (fixture hasInverse)", () => {
    const g = golden(`
type Team { id: ID!  name: String  players: [Player] @hasInverse(field: team) }
type Player { id: ID!  nick: String!  team: Team }`);
    expect(g.f("Team")).toMatchObject({
      players: "(filter: PlayerFilter, order: PlayerOrder, first: Int, offset: Int)[Player]",
      playersAggregate: "(filter: PlayerFilter)PlayerAggregateResult",
    });
    expect(g.f("Player")?.team).toBe("(filter: TeamFilter)Team");
    expect(g.f("Player")?.teamAggregate).toBeUndefined();
    expect(g.f("AddTeamInput")).toEqual({ name: "String", players: "[PlayerRef]" });
    expect(g.f("AddPlayerInput")).toEqual({ nick: "String!", team: "TeamRef" });
    expect(g.v("TeamHasFilter")).toEqual(["name", "players"]);
    expect(g.dql).toEqual(expect.arrayContaining(["<Team.players>: [uid] .", "<Player.team>: uid ."]));
  });

  it("nested: list edges to a type without orderables get no order argument (fixture type-without-orderables)", () => {
    const g = golden(`
type Club { id: ID!  name: String  members: [Badge!]!  main: Badge }
type Badge { id: ID!  active: Boolean }`);
    expect(g.f("Club")).toMatchObject({
      members: "(filter: BadgeFilter, first: Int, offset: Int)[Badge!]!",
      main: "(filter: BadgeFilter)Badge",
      membersAggregate: "(filter: BadgeFilter)BadgeAggregateResult",
    });
    expect(g.f("AddBadgePayload")).toEqual({
      badge: "(filter: BadgeFilter, first: Int, offset: Int)[Badge]",
      numUids: "Int",
    });
    expect(g.q.queryBadge).toBe("(filter: BadgeFilter, first: Int, offset: Int)[Badge]");
    expect(g.f("AddClubInput")).toEqual({ name: "String", members: "[BadgeRef!]!", main: "BadgeRef" });
  });

  it("nested: Aggregate siblings are appended after the declared fields, one per list edge", () => {
    const g = golden(`
type Shop { id: ID!  items: [Ware]  name: String  staff: [Clerk]  boss: Clerk  tags: [String] }
type Ware { id: ID!  price: Float }
type Clerk { id: ID!  name: String }`);
    expect(Object.keys(g.f("Shop") ?? {})).toEqual([
      "id",
      "items",
      "name",
      "staff",
      "boss",
      "tags",
      "itemsAggregate",
      "staffAggregate",
    ]);
    expect(g.f("Shop")?.tags).toBe("[String]");
  });

  it("@dgraph(type:, pred:): storage names change, the API does not (fixture type-reference)", () => {
    const g = golden(`
type Writer @dgraph(type: "Person.Writer") { id: ID!  name: String @search(by: [hash]) @dgraph(pred: "person.name")  books: [Volume] @dgraph(pred: "wrote") }
type Volume { id: ID!  title: String }`);
    expect(g.f("AddWriterInput")).toEqual({ name: "String", books: "[VolumeRef]" });
    expect(g.f("WriterFilter")?.name).toBe("StringHashFilter");
    expect(g.q.getWriter).toBe("(id: ID!)Writer");
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "type <Person.Writer> {",
        "\t<person.name>",
        "\t<wrote>",
        "<person.name>: string @index(hash) .",
        "<wrote>: [uid] .",
      ]),
    );
  });

  it("@dgraph(pred: ~): a reverse edge is read-only and marks the forward predicate @reverse", () => {
    const g = golden(`
type Movie { id: ID!  title: String  director: Director @dgraph(pred: "directed_by") }
type Director { id: ID!  name: String  movies: [Movie] @dgraph(pred: "~directed_by") }`);
    expect(g.f("AddDirectorInput")).toEqual({ name: "String" });
    expect(g.f("DirectorPatch")).toEqual({ name: "String" });
    expect(g.f("DirectorRef")).toEqual({ id: "ID", name: "String" });
    expect(g.f("Director")).toMatchObject({
      movies: "(filter: MovieFilter, order: MovieOrder, first: Int, offset: Int)[Movie]",
      moviesAggregate: "(filter: MovieFilter)MovieAggregateResult",
    });
    expect(g.v("DirectorHasFilter")).toEqual(["name", "movies"]);
    expect(g.dql).toContain("<directed_by>: uid @reverse .");
    expect(g.dql.join("\n")).toContain("type <Director> {\n\t<Director.name>\n}");
  });
});

describe("golden: interfaces and unions", () => {
  it("interfaces: @id(interface: true) is a get argument of the interface; plain @id ones are deprecated there", () => {
    const g = golden(`
interface Asset { tag: String! @id(interface: true)  serial: String @id  label: String }
type Laptop implements Asset { id: ID!  ram: Int }`);
    expect(g.q.getAsset).toBe("(tag: String, serial: String)Asset");
    const args = g.schema.getQueryType()?.getFields().getAsset.args ?? [];
    expect(args[0].deprecationReason).toBeFalsy();
    expect(args[1].deprecationReason).toMatch(/^@id argument for get query on interface is being deprecated/);
    expect(g.q.getLaptop).toBe("(id: ID, tag: String, serial: String)Laptop");
    expect(g.f("AssetRef")).toEqual({ tag: "String", serial: "String" });
    expect(g.m.addAsset).toBeUndefined();
    expect(g.m.addLaptop).toBe("(input: [AddLaptopInput!]!, upsert: Boolean)AddLaptopPayload");
    expect(g.f("AssetPatch")).toEqual({ tag: "String", serial: "String", label: "String" });
    expect(g.dql).toEqual(
      expect.arrayContaining(["<Asset.tag>: string @index(hash) @upsert .", "<Laptop.ram>: int ."]),
    );
  });

  it("interfaces: a type with several interfaces inherits all fields, stored under each interface's prefix", () => {
    const g = golden(`
interface Entity { id: ID!  created: DateTime @search }
interface Owned { owner: String! @search(by: [hash]) }
type Repo implements Entity & Owned { name: String! }`);
    expect(Object.keys(g.f("Repo") ?? {})).toEqual(["id", "created", "owner", "name"]);
    expect(g.f("RepoFilter")).toEqual({
      id: "[ID!]",
      created: "DateTimeFilter",
      owner: "StringHashFilter",
      has: "[RepoHasFilter]",
      and: "[RepoFilter]",
      or: "[RepoFilter]",
      not: "RepoFilter",
    });
    expect(g.f("OwnedFilter")).toEqual({
      owner: "StringHashFilter",
      has: "[OwnedHasFilter]",
      and: "[OwnedFilter]",
      or: "[OwnedFilter]",
      not: "OwnedFilter",
    });
    expect(g.f("EntityRef")).toEqual({ id: "ID!" });
    expect(g.f("OwnedRef")).toBeUndefined();
    expect(g.q.getOwned).toBeUndefined();
    expect(g.q.getEntity).toBe("(id: ID!)Entity");
    expect(g.f("AddRepoInput")).toEqual({ created: "DateTime", owner: "String!", name: "String!" });
    expect(g.dql.join("\n")).toContain(
      "type <Repo> {\n\t<Entity.created>\n\t<Owned.owner>\n\t<Repo.name>\n}",
    );
    expect(g.dql).toEqual(
      expect.arrayContaining([
        "<Entity.created>: datetime @index(year) .",
        "<Owned.owner>: string @index(hash) .",
      ]),
    );
  });

  it("interfaces: an edge to an interface without identifiers is left out of inputs (fixture interface-with-no-ids)", () => {
    const g = golden(`
interface Letter { text: String }
type Sms implements Letter { to: String }
type Inbox { id: ID!  name: String  letters: [Letter] }`);
    expect(g.f("AddInboxInput")).toEqual({ name: "String" });
    expect(g.f("LetterRef")).toBeUndefined();
    expect(g.f("Inbox")).toMatchObject({
      letters: "(filter: LetterFilter, order: LetterOrder, first: Int, offset: Int)[Letter]",
      lettersAggregate: "(filter: LetterFilter)LetterAggregateResult",
    });
  });

  it("unions: Filter of member filters, Ref of member Refs, Type enum; union fields take no order", () => {
    const g = golden(`
type Song { id: ID!  title: String }
type Podcast { id: ID!  host: String }
union Media = Song | Podcast
type Playlist { id: ID!  name: String  entries: [Media!]  now: Media }`);
    expect(g.v("MediaType")).toEqual(["Song", "Podcast"]);
    expect(g.f("MediaFilter")).toEqual({
      memberTypes: "[MediaType!]",
      songFilter: "SongFilter",
      podcastFilter: "PodcastFilter",
    });
    expect(g.f("MediaRef")).toEqual({ songRef: "SongRef", podcastRef: "PodcastRef" });
    expect(g.f("Playlist")).toEqual({
      id: "ID!",
      name: "String",
      entries: "(filter: MediaFilter, first: Int, offset: Int)[Media!]",
      now: "(filter: MediaFilter)Media",
    });
    expect(g.f("AddPlaylistInput")).toEqual({ name: "String", entries: "[MediaRef!]", now: "MediaRef" });
    expect(g.v("PlaylistHasFilter")).toEqual(["name", "entries", "now"]);
    expect(g.q.queryMedia).toBeUndefined();
    expect(g.dql).toEqual(expect.arrayContaining(["<Playlist.entries>: [uid] .", "<Playlist.now>: uid ."]));
  });
});

describe("golden: operation directives", () => {
  it("@secret: password field only in inputs, check query by ID, password predicate (fixture password-type)", () => {
    const g = golden('type Member @secret(field: "pin", pred: "member.pin") { id: ID!  login: String! @id }');
    expect(g.q.checkMemberPassword).toBe("(id: ID!, pin: String!)Member");
    expect(Object.keys(g.q)).toEqual(["getMember", "checkMemberPassword", "queryMember", "aggregateMember"]);
    expect(g.f("AddMemberInput")).toEqual({ login: "String!", pin: "String!" });
    expect(g.f("MemberPatch")).toEqual({ login: "String", pin: "String" });
    expect(g.f("MemberRef")).toEqual({ id: "ID", login: "String", pin: "String" });
    expect(g.f("Member")?.pin).toBeUndefined();
    expect(g.v("MemberHasFilter")).toEqual(["login"]);
    expect(g.dql).toContain("<member.pin>: password .");
  });

  it("@generate: queries and mutations switched off independently, subscription on (fixture generate-directive)", () => {
    const g = golden(`
type Log @generate(query: {get: false, query: true, aggregate: false}, mutation: {add: true, update: false, delete: false}, subscription: true) { id: ID!  line: String }
interface Base @generate(query: {get: true, query: false, aggregate: true}, mutation: {update: false, delete: true}) { id: ID!  kind: String }
type Impl implements Base { extra: Int }`);
    expect(Object.keys(g.q)).toEqual([
      "queryLog",
      "getBase",
      "aggregateBase",
      "getImpl",
      "queryImpl",
      "aggregateImpl",
    ]);
    expect(Object.keys(g.m)).toEqual(["addLog", "deleteBase", "addImpl", "updateImpl", "deleteImpl"]);
    expect(g.s).toEqual({ queryLog: "(filter: LogFilter, order: LogOrder, first: Int, offset: Int)[Log]" });
  });

  it("@withSubscription: get, query and aggregate are copied to Subscription", () => {
    const g = golden(`
type Alert @withSubscription { id: ID!  level: Int }
type Quiet { id: ID!  n: Int }`);
    expect(g.s).toEqual({
      getAlert: "(id: ID!)Alert",
      queryAlert: "(filter: AlertFilter, order: AlertOrder, first: Int, offset: Int)[Alert]",
      aggregateAlert: "(filter: AlertFilter)AlertAggregateResult",
    });
    expect(g.generated).toContain("# Generated Subscriptions");
  });

  it("@custom/@lambda fields: no filter/order arguments, not in inputs, filters or DQL; custom Query/Mutation first", () => {
    const g = golden(`
type City {
  id: ID!
  name: String! @search(by: [exact])
  weather: String @custom(http: {url: "http://w.example/$name", method: GET})
  mayors: [City] @lambda
  score: Int @lambda
}
type Query { bigCities(min: Int!): [City] @lambda }
type Mutation { renameAll(to: String!): Int @custom(http: {url: "http://x.example", method: POST, body: "{to: $to}"}) }`);
    expect(Object.keys(g.q)).toEqual(["bigCities", "getCity", "queryCity", "aggregateCity"]);
    expect(g.q.bigCities).toBe("(min: Int!)[City]");
    expect(Object.keys(g.m)).toEqual(["renameAll", "addCity", "updateCity", "deleteCity"]);
    expect(g.f("City")).toEqual({
      id: "ID!",
      name: "String!",
      weather: "String",
      mayors: "[City]",
      score: "Int",
    });
    expect(g.f("AddCityInput")).toEqual({ name: "String!" });
    expect(g.v("CityHasFilter")).toEqual(["name"]);
    expect(g.v("CityOrderable")).toEqual(["name"]);
    expect(Object.keys(g.f("CityAggregateResult") ?? {})).toEqual(["count", "nameMin", "nameMax"]);
    expect(g.dql.join("\n")).toContain("type <City> {\n\t<City.name>\n}");
  });

  it("@remote: remote types get no API and no DQL, only serve custom fields (fixture custom-query-not-dgraph-type)", () => {
    const g = golden(`
type Forecast @remote { day: String  temp: Float }
enum Unit @remote { C F }
type Station { id: ID!  name: String  forecast(unit: Unit): [Forecast] @custom(http: {url: "http://f.example", method: GET}) }
type Query { forecasts(city: String!): [Forecast] @custom(http: {url: "http://f.example/$city", method: GET}) }`);
    expect(g.f("ForecastFilter")).toBeUndefined();
    expect(g.f("AddForecastInput")).toBeUndefined();
    expect(g.q.queryForecast).toBeUndefined();
    expect(g.q.forecasts).toBe("(city: String!)[Forecast]");
    expect(g.f("Station")?.forecast).toBe("(unit: Unit)[Forecast]");
    expect(g.f("Forecast")).toEqual({ day: "String", temp: "Float" });
    expect(g.dql.join("\n")).not.toContain("Forecast");
    expect(g.f("AddStationInput")).toEqual({ name: "String" });
  });

  it("cleanSchema: Refs and Patches left empty vanish in cascade, with add/update (fixture filter-cleanSchema-all-empty)", () => {
    const g = golden(`
type Hub { id: ID!  spokes: [Spoke] @dgraph(pred: "~Spoke.hub") }
type Spoke { id: ID!  hub: Hub @dgraph(pred: "Spoke.hub")  ring: Ring }
type Ring { id: ID!  via: [Spoke] @dgraph(pred: "~ring") }`);
    expect(g.f("HubRef")).toEqual({ id: "ID!" });
    expect(g.f("HubPatch")).toBeUndefined();
    expect(g.f("AddHubInput")).toBeUndefined();
    expect(g.f("UpdateHubInput")).toBeUndefined();
    expect(g.m.addHub).toBeUndefined();
    expect(g.m.updateHub).toBeUndefined();
    expect(g.m.deleteHub).toBe("(filter: HubFilter!)DeleteHubPayload");
    expect(g.f("AddSpokeInput")).toEqual({ hub: "HubRef", ring: "RingRef" });
    expect(g.m.addSpoke).toBe("(input: [AddSpokeInput!]!)AddSpokePayload");
    expect(g.q.getHub).toBe("(id: ID!)Hub");
  });

  it("descriptions and @deprecated are kept on types, fields and enum values (fixture deprecated)", () => {
    const g = golden(`
"""A shipped parcel"""
type Parcel {
  id: ID!
  "the weight in grams"
  weight: Int
  oldCode: String @deprecated
  legacy: String @deprecated(reason: "use code")
  code: String
}
"""How it travels"""
enum Mode2 { AIR SEA @deprecated(reason: "too slow") }`);
    const parcel = g.schema.getType("Parcel") as GraphQLObjectType;
    expect(parcel.description).toBe("A shipped parcel");
    expect(parcel.getFields().weight.description).toBe("the weight in grams");
    expect(parcel.getFields().oldCode.deprecationReason).toBe("No longer supported");
    expect(parcel.getFields().legacy.deprecationReason).toBe("use code");
    const mode = g.schema.getType("Mode2");
    expect(mode?.description).toBe("How it travels");
    expect(isEnumType(mode) && mode.getValue("SEA")?.deprecationReason).toBe("too slow");
    expect(g.f("AddParcelInput")).toEqual({
      weight: "Int",
      oldCode: "String",
      legacy: "String",
      code: "String",
    });
    expect(g.generated).toMatch(/"""\s*A shipped parcel\s*"""\ntype Parcel/);
  });

  it("unknown directives declared in the input are accepted and dropped (fixture ignore-unsupported-directive)", () => {
    const g = golden(`
directive @audit(level: Int) on OBJECT | FIELD_DEFINITION
type Order2 @audit(level: 2) { id: ID!  total: Float @audit @search }`);
    expect(g.generated).not.toContain("@audit");
    expect(g.f("Order2Filter")?.total).toBe("FloatFilter");
    expect(g.schema.getDirective("audit")).toBeUndefined();
    expect(g.dql).toContain("<Order2.total>: float @index(float) .");
  });
});

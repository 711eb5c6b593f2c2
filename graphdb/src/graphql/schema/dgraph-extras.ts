/**
 * The definitions Dgraph injects into every GraphQL schema ("Extended Definitions"): its scalars, range
 * and filter inputs, the geo types and the directive definitions. Printed verbatim in the generated
 * schema, in this order.
 */

const SCALARS = `"""
The Int64 scalar type represents a signed 64‐bit numeric non‐fractional value.
Int64 can represent values in range [-(2^63),(2^63 - 1)].
"""
scalar Int64

"""
The DateTime scalar type represents date and time as a string in RFC3339 format.
For example: "1985-04-12T23:20:50.52Z" represents 20 mins 50.52 secs after the 23rd hour of Apr 12th 1985 in UTC.
"""
scalar DateTime`;

const range = (name: string, type: string) => `input ${name}{\n\tmin: ${type}!\n\tmax: ${type}!\n}`;

const SUPPORT = `enum DgraphIndex {
\tint
\tint64
\tfloat
\tbool
\thash
\texact
\tterm
\tfulltext
\ttrigram
\tregexp
\tyear
\tmonth
\tday
\thour
\tgeo
}

input AuthRule {
\tand: [AuthRule]
\tor: [AuthRule]
\tnot: AuthRule
\trule: String
}

enum HTTPMethod {
\tGET
\tPOST
\tPUT
\tPATCH
\tDELETE
}

enum Mode {
\tBATCH
\tSINGLE
}

input CustomHTTP {
\turl: String!
\tmethod: HTTPMethod!
\tbody: String
\tgraphql: String
\tmode: Mode
\tforwardHeaders: [String!]
\tsecretHeaders: [String!]
\tintrospectionHeaders: [String!]
\tskipIntrospection: Boolean
}

input DgraphDefault {
\tvalue: String
}

type Point {
\tlongitude: Float!
\tlatitude: Float!
}

input PointRef {
\tlongitude: Float!
\tlatitude: Float!
}

input NearFilter {
\tdistance: Float!
\tcoordinate: PointRef!
}

input PointGeoFilter {
\tnear: NearFilter
\twithin: WithinFilter
}

type PointList {
\tpoints: [Point!]!
}

input PointListRef {
\tpoints: [PointRef!]!
}

type Polygon {
\tcoordinates: [PointList!]!
}

input PolygonRef {
\tcoordinates: [PointListRef!]!
}

type MultiPolygon {
\tpolygons: [Polygon!]!
}

input MultiPolygonRef {
\tpolygons: [PolygonRef!]!
}

input WithinFilter {
\tpolygon: PolygonRef!
}

input ContainsFilter {
\tpoint: PointRef
\tpolygon: PolygonRef
}

input IntersectsFilter {
\tpolygon: PolygonRef
\tmultiPolygon: MultiPolygonRef
}

input PolygonGeoFilter {
\tnear: NearFilter
\twithin: WithinFilter
\tcontains: ContainsFilter
\tintersects: IntersectsFilter
}

input GenerateQueryParams {
\tget: Boolean
\tquery: Boolean
\tpassword: Boolean
\taggregate: Boolean
}

input GenerateMutationParams {
\tadd: Boolean
\tupdate: Boolean
\tdelete: Boolean
}`;

/** Every directive Dgraph knows, by name, with its definition. */
export const DGRAPH_DIRECTIVES: ReadonlyMap<string, string> = new Map([
  ["hasInverse", "directive @hasInverse(field: String!) on FIELD_DEFINITION"],
  ["search", "directive @search(by: [String!]) on FIELD_DEFINITION"],
  ["dgraph", "directive @dgraph(type: String, pred: String) on OBJECT | INTERFACE | FIELD_DEFINITION"],
  ["id", "directive @id(interface: Boolean) on FIELD_DEFINITION"],
  ["default", "directive @default(add: DgraphDefault, update: DgraphDefault) on FIELD_DEFINITION"],
  ["withSubscription", "directive @withSubscription on OBJECT | INTERFACE | FIELD_DEFINITION"],
  ["secret", "directive @secret(field: String!, pred: String) on OBJECT | INTERFACE"],
  [
    "auth",
    "directive @auth(\n\tpassword: AuthRule\n\tquery: AuthRule,\n\tadd: AuthRule,\n\tupdate: AuthRule,\n\tdelete: AuthRule) on OBJECT | INTERFACE",
  ],
  ["custom", "directive @custom(http: CustomHTTP, dql: String) on FIELD_DEFINITION"],
  ["remote", "directive @remote on OBJECT | INTERFACE | UNION | INPUT_OBJECT | ENUM"],
  ["remoteResponse", "directive @remoteResponse(name: String) on FIELD_DEFINITION"],
  ["cascade", "directive @cascade(fields: [String]) on FIELD"],
  ["lambda", "directive @lambda on FIELD_DEFINITION"],
  [
    "lambdaOnMutate",
    "directive @lambdaOnMutate(add: Boolean, update: Boolean, delete: Boolean) on OBJECT | INTERFACE",
  ],
  ["cacheControl", "directive @cacheControl(maxAge: Int!) on QUERY"],
  [
    "generate",
    "directive @generate(\n\tquery: GenerateQueryParams,\n\tmutation: GenerateMutationParams,\n\tsubscription: Boolean) on OBJECT | INTERFACE",
  ],
]);

const ordered = (name: string, type: string, range: string) =>
  `input ${name} {\n\teq: ${type}\n\tin: [${type}]\n\tle: ${type}\n\tlt: ${type}\n\tge: ${type}\n\tgt: ${type}\n\tbetween: ${range}\n}`;

const FILTERS = [
  ordered("IntFilter", "Int", "IntRange"),
  ordered("Int64Filter", "Int64", "Int64Range"),
  ordered("FloatFilter", "Float", "FloatRange"),
  ordered("DateTimeFilter", "DateTime", "DateTimeRange"),
  "input StringTermFilter {\n\tallofterms: String\n\tanyofterms: String\n}",
  "input StringRegExpFilter {\n\tregexp: String\n}",
  "input StringFullTextFilter {\n\talloftext: String\n\tanyoftext: String\n}",
  ordered("StringExactFilter", "String", "StringRange"),
  "input StringHashFilter {\n\teq: String\n\tin: [String]\n}",
];

/** The "Extended Definitions" section with the definitions of the directives `keep` accepts. */
export function extendedDefinitions(keep: (directive: string) => boolean): string {
  return [
    SCALARS,
    range("IntRange", "Int"),
    range("FloatRange", "Float"),
    range("Int64Range", "Int64"),
    range("DateTimeRange", "DateTime"),
    range("StringRange", "String"),
    SUPPORT,
    [...DGRAPH_DIRECTIVES]
      .filter(([name]) => keep(name))
      .map(([, definition]) => definition)
      .join("\n"),
    ...FILTERS,
  ].join("\n\n");
}

/** The "Extended Definitions" section, as printed. */
export const EXTENDED_DEFINITIONS = extendedDefinitions(() => true);

/**
 * The directives whose definitions a federated `_service` SDL keeps (reference §4.4): gateway composition
 * chokes on directives with non-scalar arguments, so `@auth`, `@custom`, `@cascade`, `@cacheControl` and
 * `@generate` are left out, and their uses on types and fields with them.
 */
export const APOLLO_SERVICE_DIRECTIVES: ReadonlySet<string> = new Set([
  "hasInverse",
  "search",
  "embedding",
  "dgraph",
  "id",
  "default",
  "withSubscription",
  "secret",
  "remote",
  "remoteResponse",
  "lambda",
  "lambdaOnMutate",
]);

/** Names Dgraph injects: a user type may not reuse them. */
export const INJECTED_NAMES: ReadonlySet<string> = new Set(
  [...EXTENDED_DEFINITIONS.matchAll(/^(?:scalar|input|enum|type) (\w+)/gm)].map((m) => m[1]),
);

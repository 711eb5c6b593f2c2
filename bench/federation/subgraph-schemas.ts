/**
 * The three subgraphs' SDL. Trellis owns Mission and extends the reference subgraph's Astronaut (reference
 * §7.2); the plain subgraph declares the same types as Trellis, Federation 1 style like Trellis's own SDL,
 * so the gateway composes the same supergraph and plans the same fetches with either.
 */

/** Trellis's GraphQL schema (`/admin/schema`). */
export const TRELLIS_SCHEMA = `
type Mission @key(fields: "id") {
  id: ID!
  designation: String!
  crew: [Astronaut] @provides(fields: "name age")
}
extend type Astronaut @key(fields: "id") {
  id: ID! @external
  name: String @external
  age: Int @external
  missions: [Mission] @hasInverse(field: crew)
}`;

/** The plain `@apollo/subgraph` in Trellis's place: the same types, served from memory. */
export const PLAIN_SCHEMA = `
type Query { missions(ids: [ID!]!): [Mission] }
type Mission @key(fields: "id") {
  id: ID!
  designation: String!
  crew: [Astronaut] @provides(fields: "name age")
}
extend type Astronaut @key(fields: "id") {
  id: ID! @external
  name: String @external
  age: Int @external
  missions: [Mission]
}`;

/** The reference subgraph that owns Astronaut (Federation 2). */
export const REFERENCE_SCHEMA = `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])
type Query { astronauts(ids: [ID!]!): [Astronaut] }
type Astronaut @key(fields: "id") { id: ID! name: String @shareable age: Int @shareable }`;

/** The query timed through the gateway: the reference's astronauts joined with their missions. */
export const JOIN_QUERY =
  "query($ids: [ID!]!) { astronauts(ids: $ids) { id name missions { designation } } }";

/** What the gateway sends the missions side for JOIN_QUERY (reference §4.6), to time that side alone. */
export const ENTITIES_QUERY =
  "query($representations:[_Any!]!){_entities(representations:$representations){...on Astronaut{missions{designation}}}}";

/**
 * Generated queries over data written through DQL: get/query/aggregate, filters, order, pagination,
 * nested edges with their arguments and aggregates, interfaces, and Dgraph's completion rules.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

const SCHEMA = `
interface Named { id: ID!  name: String! @search(by: [exact, term]) }
type Author implements Named {
  reputation: Int @search
  posts: [Post] @hasInverse(field: author)
}
type Post {
  id: ID!
  title: String! @search(by: [term])
  likes: Int @search
  published: DateTime @search
  author: Author
  place: Point @search
}
type Editor implements Named { desk: String }
`;

let dir: string;
let db: GraphDB;
let service: GraphQLService;
const uids: Record<string, string> = {};

async function gql(query: string, variables?: Record<string, unknown>) {
  return JSON.parse(JSON.stringify(await service.execute(0, { query, variables })));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-query-"));
  db = new GraphDB({ dir });
  service = new GraphQLService(db);
  await service.updateSchema(0, SCHEMA);
  const res = await db.mutate({
    commitNow: true,
    mutations: [
      {
        setNquads: `
_:ann <dgraph.type> "Author" .
_:ann <dgraph.type> "Named" .
_:ann <Named.name> "Ann" .
_:ann <Author.reputation> "10" .
_:bob <dgraph.type> "Author" .
_:bob <dgraph.type> "Named" .
_:bob <Named.name> "Bob" .
_:bob <Author.reputation> "3" .
_:ed <dgraph.type> "Editor" .
_:ed <dgraph.type> "Named" .
_:ed <Named.name> "Eve" .
_:ed <Editor.desk> "news" .
_:p1 <dgraph.type> "Post" .
_:p1 <Post.title> "Graph databases explained" .
_:p1 <Post.likes> "5" .
_:p1 <Post.published> "2024-01-02T00:00:00Z" .
_:p1 <Post.author> _:ann .
_:ann <Author.posts> _:p1 .
_:p1 <Post.place> "{\\"type\\":\\"Point\\",\\"coordinates\\":[2.35,48.85]}"^^<geo:geojson> .
_:p2 <dgraph.type> "Post" .
_:p2 <Post.title> "Why graphs" .
_:p2 <Post.likes> "9" .
_:p2 <Post.author> _:ann .
_:ann <Author.posts> _:p2 .
_:p3 <dgraph.type> "Post" .
_:p3 <Post.title> "Tables forever" .
_:p3 <Post.likes> "1" .
_:p3 <Post.author> _:bob .
_:bob <Author.posts> _:p3 .
`,
      },
    ],
  });
  Object.assign(uids, res.uids);
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("generated queries", () => {
  it("gets a node by ID, with its edges", async () => {
    const r = await gql(
      `query($id: ID!) { getAuthor(id: $id) { id name reputation posts(order: {asc: likes}) { title } } }`,
      {
        id: uids.ann,
      },
    );
    expect(r).toEqual({
      data: {
        getAuthor: {
          id: uids.ann,
          name: "Ann",
          reputation: 10,
          posts: [{ title: "Graph databases explained" }, { title: "Why graphs" }],
        },
      },
    });
  });

  it("answers null for a missing node and for a node of another type", async () => {
    const r = await gql(`{ a: getAuthor(id: "0xfffff") { name } b: getAuthor(id: "${uids.p1}") { name } }`);
    expect(r).toEqual({ data: { a: null, b: null } });
  });

  it("filters with operators, has, and/or/not, and orders and paginates", async () => {
    const r = await gql(`{
      queryPost(filter: { likes: { ge: 2 }, not: { title: { anyofterms: "why" } } }) { title }
      byTerm: queryPost(filter: { or: [{ title: { allofterms: "graph databases" } }, { likes: { lt: 2 } }] }, order: { desc: likes }) { title likes }
      page: queryPost(order: { asc: likes }, first: 2, offset: 1) { likes }
      between: queryPost(filter: { likes: { between: { min: 2, max: 9 } } }, order: { asc: likes }) { likes }
      inList: queryAuthor(filter: { name: { in: ["Bob", "Zed"] } }) { name }
      hasPlace: queryPost(filter: { has: [place] }) { title }
      byIds: queryPost(filter: { id: ["${uids.p3}"] }) { title }
    }`);
    expect(r.data).toEqual({
      queryPost: [{ title: "Graph databases explained" }],
      byTerm: [
        { title: "Graph databases explained", likes: 5 },
        { title: "Tables forever", likes: 1 },
      ],
      page: [{ likes: 5 }, { likes: 9 }],
      between: [{ likes: 5 }, { likes: 9 }],
      inList: [{ name: "Bob" }],
      hasPlace: [{ title: "Graph databases explained" }],
      byIds: [{ title: "Tables forever" }],
    });
  });

  it("aggregates at the root and on edges", async () => {
    const r = await gql(`{
      aggregatePost(filter: { likes: { gt: 1 } }) { count likesMin likesMax likesSum likesAvg titleMin }
      none: aggregatePost(filter: { likes: { gt: 100 } }) { count likesMax }
      queryAuthor(order: { asc: name }) { name postsAggregate { count likesMax } n: postsAggregate(filter: { likes: { gt: 6 } }) { count } }
    }`);
    expect(r.data).toEqual({
      aggregatePost: {
        count: 2,
        likesMin: 5,
        likesMax: 9,
        likesSum: 14,
        likesAvg: 7,
        titleMin: "Graph databases explained",
      },
      none: { count: 0, likesMax: null },
      queryAuthor: [
        { name: "Ann", postsAggregate: { count: 2, likesMax: 9 }, n: { count: 1 } },
        { name: "Bob", postsAggregate: { count: 1, likesMax: 1 }, n: { count: 0 } },
      ],
    });
  });

  it("queries an interface across its implementations, with __typename and fragments", async () => {
    const r = await gql(
      `{ queryNamed(order: { asc: name }) { __typename name ... on Author { reputation } ... on Editor { desk } } }`,
    );
    expect(r.data.queryNamed).toEqual([
      { __typename: "Author", name: "Ann", reputation: 10 },
      { __typename: "Author", name: "Bob", reputation: 3 },
      { __typename: "Editor", name: "Eve", desk: "news" },
    ]);
  });

  it("returns geo values as Dgraph's Point objects", async () => {
    const r = await gql("{ queryPost(filter: { has: [place] }) { title place { longitude latitude } } }");
    expect(r.data.queryPost).toEqual([
      { title: "Graph databases explained", place: { longitude: 2.35, latitude: 48.85 } },
    ]);
  });

  it("filters on a Point with near (great-circle distance in metres)", async () => {
    const near = (distance: number) =>
      `queryPost(filter: { place: { near: { coordinate: { latitude: 48.86, longitude: 2.35 }, distance: ${distance} } } }) { title }`;
    // The post is 1112 m south of the coordinate.
    const r = await gql(`{ inside: ${near(1200)} outside: ${near(1000)} }`);
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ inside: [{ title: "Graph databases explained" }], outside: [] });
  });

  it("drops nodes missing a selected field with @cascade, or only the listed fields", async () => {
    const r = await gql(`{
      all: queryPost(order: { asc: likes }) @cascade { title place { latitude } }
      listed: queryPost(order: { asc: likes }) @cascade(fields: ["published"]) { title }
      nested: queryAuthor(order: { asc: name }) { name posts(order: { asc: likes }) @cascade(fields: ["place"]) { title } }
    }`);
    expect(r.data).toEqual({
      all: [{ title: "Graph databases explained", place: { latitude: 48.85 } }],
      listed: [{ title: "Graph databases explained" }],
      nested: [
        { name: "Ann", posts: [{ title: "Graph databases explained" }] },
        { name: "Bob", posts: [] },
      ],
    });
  });

  it("reports a missing non-null field with Dgraph's text and its path", async () => {
    await db.mutate({
      commitNow: true,
      mutations: [{ setNquads: '_:x <dgraph.type> "Post" .\n_:x <Post.likes> "77" .' }],
    });
    const r = await gql("{ queryPost(filter: { likes: { eq: 77 } }) { likes title } }");
    expect(r.errors).toEqual([
      {
        message:
          "Non-nullable field 'title' (type String!) was not present in result from Dgraph.  GraphQL error propagation triggered.",
        locations: [{ line: 1, column: 52 }],
        path: ["queryPost", 0, "title"],
      },
    ]);
    expect(r.data).toEqual({ queryPost: [null] });
  });

  it("answers validation errors as GraphQL does, and a query before any schema with Dgraph's text", async () => {
    const r = await gql("{ queryPost { nope } }");
    expect(r.errors[0].message).toBe('Cannot query field "nope" on type "Post".');
    const empty = new GraphQLService(db);
    const other = await db.createNamespace();
    const none = JSON.parse(JSON.stringify(await empty.execute(other, { query: "{ queryPost { title } }" })));
    expect(none.errors[0].message).toMatch(/There's no GraphQL schema in Dgraph/);
  });
});

describe("check<T>Password", () => {
  it("returns the node only when the password matches", async () => {
    const ns = await db.createNamespace();
    await service.updateSchema(ns, 'type User @secret(field: "pwd") { name: String! @id  age: Int }');
    await db.mutate({
      namespace: ns,
      commitNow: true,
      mutations: [
        { setNquads: '_:u <dgraph.type> "User" .\n_:u <User.name> "ann" .\n_:u <User.pwd> "s3cret!" .' },
      ],
    });
    const ask = async (pwd: string) =>
      JSON.parse(
        JSON.stringify(
          await service.execute(ns, {
            query: 'query($p: String!) { checkUserPassword(name: "ann", pwd: $p) { name } }',
            variables: { p: pwd },
          }),
        ),
      );
    expect(await ask("s3cret!")).toEqual({ data: { checkUserPassword: { name: "ann" } } });
    expect(await ask("wrong!!")).toEqual({ data: { checkUserPassword: null } });
  });
});

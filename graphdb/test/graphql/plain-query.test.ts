/**
 * The plain-query fast path (plain-query.ts) answers exactly what graphql-js's execution answers: every
 * query here runs through a service with plans and one without, over the same data, and the responses
 * must be equal, errors included. The plan check makes sure the fast path is really taken where it should
 * be, and declined where graphql-js must run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { planPlainQuery } from "../../src/graphql/execution/plain-query.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

const SCHEMA = `
interface Named { id: ID!  name: String! @search(by: [exact, term]) }
type Author implements Named {
  reputation: Int @search
  score: Float
  active: Boolean
  mood: Mood
  tags: [String]
  posts: [Post] @hasInverse(field: author)
  best: Post
}
enum Mood { HAPPY SAD }
type Post {
  id: ID!
  title: String! @search(by: [term])
  likes: Int @search
  published: DateTime @search
  author: Author
  place: Point
}
type Editor implements Named { desk: String }
union Person = Author | Editor
`;

let dir: string;
let db: GraphDB;
let plain: GraphQLService;
let graphqlJs: GraphQLService;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-plain-"));
  db = new GraphDB({ dir });
  plain = new GraphQLService(db);
  graphqlJs = new GraphQLService(db, { plainQueries: false });
  await plain.updateSchema(0, SCHEMA);
  await db.mutate({
    commitNow: true,
    mutations: [
      {
        setNquads: `
_:ann <dgraph.type> "Author" .
_:ann <dgraph.type> "Named" .
_:ann <Named.name> "Ann" .
_:ann <Author.reputation> "10" .
_:ann <Author.score> "2.5" .
_:ann <Author.active> "true" .
_:ann <Author.mood> "HAPPY" .
_:ann <Author.tags> "a" .
_:ann <Author.tags> "b" .
_:ann <Author.best> _:p1 .
_:bob <dgraph.type> "Author" .
_:bob <dgraph.type> "Named" .
_:bob <Named.name> "Bob" .
_:ed <dgraph.type> "Editor" .
_:ed <dgraph.type> "Named" .
_:ed <Named.name> "Eve" .
_:p1 <dgraph.type> "Post" .
_:p1 <Post.title> "Graph databases" .
_:p1 <Post.likes> "5" .
_:p1 <Post.published> "2024-03-01T10:00:00Z" .
_:p1 <Post.author> _:ann .
_:ann <Author.posts> _:p1 .
_:p2 <dgraph.type> "Post" .
_:p2 <Post.title> "Graph queries" .
_:p2 <Post.likes> "7" .
_:p2 <Post.author> _:ann .
_:ann <Author.posts> _:p2 .
_:p3 <dgraph.type> "Post" .
_:p3 <Post.likes> "1" .
_:p3 <Post.author> _:bob .
_:bob <Author.posts> _:p3 .
`,
      },
    ],
  });
});

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same operation with and without plans; the text a server sends must be the same text too. */
async function both(query: string, variables?: Record<string, unknown>) {
  const [a, b, text, referenceText] = await Promise.all([
    plain.execute(0, { query, variables }),
    graphqlJs.execute(0, { query, variables }),
    plain.executeJson(0, { query, variables }),
    graphqlJs.executeJson(0, { query, variables }),
  ]);
  expect(text).toBe(referenceText);
  return [JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b))];
}

async function planned(query: string): Promise<boolean> {
  const build = await plain.current(0);
  if (build === undefined) throw new Error("no schema");
  return planPlainQuery(build.schema, build.model, parse(query), undefined) !== undefined;
}

/** Queries the fast path takes; their answers must equal graphql-js's. */
const PLAIN: [string, string, Record<string, unknown>?][] = [
  [
    "every scalar kind, lists, enums and nested edges",
    `{ queryAuthor(order: { asc: name }) { id name reputation score active mood tags
        posts(order: { asc: likes }) { likes published author { name } } best { likes } } }`,
  ],
  [
    "aliases, __typename and fragments on the same type",
    `{ a: queryPost(filter: { likes: { ge: 5 } }, order: { desc: likes }) { __typename n: likes ...P } } fragment P on Post { likes published }`,
  ],
  [
    "get by id with variables",
    "query($t: String!) { queryPost(filter: { title: { anyofterms: $t } }, order: { asc: likes }) { likes author { name } } }",
    { t: "graph" },
  ],
  [
    "scalar variables of every kind, one null",
    `query($n: Int, $skip: Int, $id: ID!, $min: Int!, $t: String) {
      queryPost(first: $n, offset: $skip, order: { asc: likes }, filter: { likes: { ge: $min } }) { likes }
      getAuthor(id: $id) { name }
      queryAuthor(filter: { name: { eq: $t } }) { name } }`,
    { n: 2, skip: null, id: "0x1", min: 2, t: "Ann" },
  ],
  [
    "root and nested aggregates",
    "{ aggregatePost { count likesMax likesAvg } queryAuthor(order: { asc: name }) { name postsAggregate { count likesSum } } }",
  ],
  ["the count alone", "{ aggregatePost(filter: { likes: { gt: 1 } }) { count } }"],
  [
    "pagination and @cascade",
    "{ queryPost(first: 1, offset: 1, order: { asc: likes }) @cascade { likes author { name } } }",
  ],
  [
    "a missing non-null value (graphql-js completes it: error and null)",
    "{ queryPost(order: { asc: likes }) { likes title } }",
  ],
  [
    "no match",
    `{ queryAuthor(filter: { name: { eq: "Nobody" } }) { name } getAuthor(id: "0x999999") { name } }`,
  ],
];

/** Queries that must go through graphql-js. */
const NOT_PLAIN: [string, string][] = [
  ["an interface", "{ queryNamed { name } }"],
  ["geo values", "{ queryPost { place { latitude } } }"],
  ["@skip", "{ queryPost { likes @skip(if: true) } }"],
  ["a repeated response key", "{ queryPost { likes likes } }"],
  ["a fragment on an interface", "{ queryAuthor { ... on Named { name } } }"],
  ["introspection", "{ __schema { queryType { name } } }"],
  ["a mutation", `mutation { deletePost(filter: { likes: { eq: 99 } }) { numUids } }`],
];

describe("plain queries", () => {
  for (const [what, query, variables] of PLAIN) {
    it(`answers as graphql-js does: ${what}`, async () => {
      expect(await planned(query)).toBe(true);
      const [fast, reference] = await both(query, variables);
      expect(fast).toEqual(reference);
      expect(fast.data).toBeDefined();
    });
  }

  it("declines what graphql-js must run", async () => {
    const declined = [];
    for (const [what, query] of NOT_PLAIN) if (!(await planned(query))) declined.push(what);
    expect(declined).toEqual(NOT_PLAIN.map(([what]) => what));
    for (const [, query] of NOT_PLAIN.slice(0, 5)) {
      const [fast, reference] = await both(query);
      expect(fast).toEqual(reference);
    }
  });

  it("keeps nodes none of whose asked values exist, at every level", async () => {
    // Bob has no reputation; the post of likes 1 has no title or published date.
    const [fast, reference] = await both(
      "{ queryAuthor(order: { asc: name }) { reputation posts(order: { asc: likes }) { published } } }",
    );
    expect(fast).toEqual({
      data: {
        queryAuthor: [
          { reputation: 10, posts: [{ published: "2024-03-01T10:00:00Z" }, { published: null }] },
          { reputation: null, posts: [{ published: null }] },
        ],
      },
    });
    expect(reference).toEqual(fast);
  });

  it("reports variable errors as graphql-js does", async () => {
    const query = "query($n: Int!, $f: Float, $b: Boolean) { queryPost(first: $n) { likes } }";
    for (const variables of [
      { n: "x" },
      { n: 2 ** 31 },
      {},
      { n: 1, f: "1.5" },
      { n: 1, b: 1 },
      { n: 1.5 },
    ]) {
      const [fast, reference] = await both(query, variables);
      expect(fast).toEqual(reference);
      expect(fast.errors[0].message).toContain("Variable");
    }
  });
});

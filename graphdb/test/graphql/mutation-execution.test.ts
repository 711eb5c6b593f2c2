/**
 * Generated mutations against a real in-process engine: add (nested Refs linked or created, `@id` with
 * upsert and duplicates, geo, `@secret`), update (set/remove), delete, `@hasInverse` kept both ways,
 * interfaces, payloads, numUids, Dgraph's error texts, and the stored data as DQL sees it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

const SCHEMA = `
interface Named { id: ID!  name: String! @search(by: [hash]) }
type Author implements Named @secret(field: "pwd") {
  handle: String! @id
  reputation: Int @search
  posts: [Post] @hasInverse(field: author)
  country: Country
}
type Post {
  id: ID!
  title: String! @search(by: [term])
  likes: Int @search
  tags: [String] @search(by: [exact])
  author: Author
  place: Point
  area: Polygon
}
type Country {
  id: ID!
  code: String! @id
  name: String
  capital: City @hasInverse(field: capitalOf)
}
type City { id: ID!  name: String! @search(by: [hash])  capitalOf: Country }
type Editor implements Named { desk: String }
`;

let dir: string;
let db: GraphDB;
let service: GraphQLService;

// biome-ignore lint/suspicious/noExplicitAny: test results are checked structurally
type Json = any;

async function gql(query: string, variables?: Record<string, unknown>): Promise<Json> {
  return JSON.parse(JSON.stringify(await service.execute(0, { query, variables })));
}

async function dql(query: string): Promise<Json> {
  const res = await db.query({ query });
  return JSON.parse(res.json);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-mutation-"));
  db = new GraphDB({ dir });
  service = new GraphQLService(db);
  await service.updateSchema(0, SCHEMA);
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("add mutations", () => {
  it("adds a node with nested Refs: an ID links the node unmodified, other Refs create nodes", async () => {
    const fr = await gql(
      `mutation { addCountry(input: [{code: "FR", name: "France"}]) { country { id code name } numUids } }`,
    );
    expect(fr.data.addCountry.numUids).toBe(1);
    const frId = fr.data.addCountry.country[0].id;
    expect(fr.data.addCountry.country[0]).toEqual({ id: frId, code: "FR", name: "France" });

    const r = await gql(
      `mutation($in: [AddAuthorInput!]!) {
        addAuthor(input: $in) {
          numUids
          author { handle name country { name } posts(order: {asc: likes}) { title likes tags author { handle } } }
        }
      }`,
      {
        in: [
          {
            handle: "ann",
            name: "Ann",
            pwd: "s3cret-pass",
            reputation: 10,
            country: { id: frId, name: "Not France" },
            posts: [
              { title: "Graph databases", likes: 5, tags: ["db", "graph"] },
              { title: "Why graphs", likes: 2 },
            ],
          },
        ],
      },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.addAuthor.numUids).toBe(3);
    expect(r.data.addAuthor.author).toEqual([
      {
        handle: "ann",
        name: "Ann",
        country: { name: "France" },
        posts: [
          { title: "Why graphs", likes: 2, tags: [], author: { handle: "ann" } },
          { title: "Graph databases", likes: 5, tags: ["db", "graph"], author: { handle: "ann" } },
        ],
      },
    ]);

    // As DQL sees it: Type.field predicates, dgraph.type with the interface, the inverse edge stored.
    const d = await dql(`{ q(func: eq(Author.handle, "ann")) {
      dgraph.type Named.name Author.reputation Author.country { Country.name }
      Author.posts (orderasc: Post.likes) { Post.title Post.author { Author.handle } }
      ok : checkpwd(Author.pwd, "s3cret-pass")
    } }`);
    const ann = d.q[0];
    expect([...ann["dgraph.type"]].sort()).toEqual(["Author", "Named"]);
    expect(ann["Named.name"]).toBe("Ann");
    expect(ann["Author.reputation"]).toBe(10);
    expect(ann["Author.country"]).toEqual({ "Country.name": "France" });
    expect(ann["Author.posts"]).toEqual([
      { "Post.title": "Why graphs", "Post.author": { "Author.handle": "ann" } },
      { "Post.title": "Graph databases", "Post.author": { "Author.handle": "ann" } },
    ]);
    expect(ann.ok).toBe(true);
  });

  it("rejects a Ref to a missing node or to a node of another type, writing nothing", async () => {
    const post = await dql(`{ q(func: type(Post), first: 1) { uid } }`);
    const r = await gql(
      `mutation($c: ID!) { addAuthor(input: [{handle: "zed", name: "Zed", pwd: "zzzzzzzz", country: {id: $c}}]) { numUids } }`,
      { c: post.q[0].uid },
    );
    expect(r.data).toEqual({ addAuthor: null });
    expect(r.errors[0].message).toBe(
      `couldn't rewrite mutation addAuthor because failed to rewrite mutation payload because ID "${post.q[0].uid}" isn't a Country`,
    );
    expect(r.errors[0].path).toEqual(["addAuthor"]);
    const zed = await gql(`{ queryAuthor(filter: {name: {eq: "Zed"}}) { handle } }`);
    expect(zed.data.queryAuthor).toEqual([]);
  });

  it("keeps @id values unique: an existing xid fails unless upsert, which updates the node", async () => {
    const dup = await gql(`mutation { addCountry(input: [{code: "FR", name: "Again"}]) { numUids } }`);
    expect(dup.data).toEqual({ addCountry: null });
    expect(dup.errors[0].message).toBe(
      "couldn't rewrite mutation addCountry because failed to rewrite mutation payload because id FR already exists for field code inside type Country",
    );
    const up = await gql(
      `mutation { addCountry(input: [{code: "FR", name: "République française"}], upsert: true) { numUids country { code name } } }`,
    );
    expect(up.data.addCountry).toEqual({
      numUids: 1,
      country: [{ code: "FR", name: "République française" }],
    });
    const all = await gql(`{ queryCountry(filter: {code: {eq: "FR"}}) { name } }`);
    expect(all.data.queryCountry).toEqual([{ name: "République française" }]);
  });

  it("reports duplicate xids in one request, except for an entry holding only the xid", async () => {
    const dup = await gql(
      `mutation { addCountry(input: [{code: "DE", name: "a"}, {code: "DE", name: "b"}]) { numUids } }`,
    );
    expect(dup.errors[0].message).toBe(
      "couldn't rewrite mutation addCountry because duplicate XID found: DE",
    );
    expect((await gql(`{ queryCountry(filter: {code: {eq: "DE"}}) { name } }`)).data.queryCountry).toEqual(
      [],
    );

    const ok = await gql(
      `mutation { addCountry(input: [{code: "ES", name: "Spain"}, {code: "ES"}]) { numUids country { code name } } }`,
    );
    expect(ok.errors).toBeUndefined();
    expect(ok.data.addCountry).toEqual({ numUids: 1, country: [{ code: "ES", name: "Spain" }] });
  });

  it("links a nested Ref whose xid exists without modifying it, and creates one whose xid is new", async () => {
    const r = await gql(`mutation {
      addAuthor(input: [
        {handle: "bob", name: "Bob", pwd: "bobbobbob", country: {code: "ES", name: "Not Spain"}},
        {handle: "cy", name: "Cy", pwd: "cycycycy", country: {code: "IT", name: "Italy"}}
      ]) { numUids author { handle country { code name } } }
    }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.addAuthor).toEqual({
      numUids: 3,
      author: [
        { handle: "bob", country: { code: "ES", name: "Spain" } },
        { handle: "cy", country: { code: "IT", name: "Italy" } },
      ],
    });
  });

  it("requires the non-null fields of a node created from a Ref", async () => {
    const r = await gql(
      `mutation { addPost(input: [{title: "T", author: {handle: "new-one"}}]) { numUids } }`,
    );
    expect(r.errors[0].message).toBe(
      "couldn't rewrite mutation addPost because failed to rewrite mutation payload because type Author requires a value for field name, but no value present",
    );
  });

  it("writes geo inputs as GeoJSON and reads them back", async () => {
    const r = await gql(`mutation {
      addPost(input: [{
        title: "Where",
        place: {longitude: 2.35, latitude: 48.85},
        area: {coordinates: [{points: [{longitude: 0, latitude: 0}, {longitude: 1, latitude: 0}, {longitude: 1, latitude: 1}, {longitude: 0, latitude: 0}]}]}
      }]) { post { place { longitude latitude } area { coordinates { points { longitude latitude } } } } }
    }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.addPost.post[0].place).toEqual({ longitude: 2.35, latitude: 48.85 });
    expect(r.data.addPost.post[0].area.coordinates[0].points[1]).toEqual({ longitude: 1, latitude: 0 });
    const d = await dql(`{ q(func: anyofterms(Post.title, "Where")) { Post.place } }`);
    expect(d.q[0]["Post.place"]).toEqual({ type: "Point", coordinates: [2.35, 48.85] });
  });

  it("filters, orders and paginates the payload's nodes", async () => {
    const r = await gql(`mutation {
      addPost(input: [{title: "p one", likes: 1}, {title: "p two", likes: 20}, {title: "p three", likes: 30}]) {
        numUids
        top: post(filter: {likes: {gt: 1}}, order: {desc: likes}, first: 1) { title }
        all: post(order: {asc: likes}) { likes }
      }
    }`);
    expect(r.data.addPost).toEqual({
      numUids: 3,
      top: [{ title: "p three" }],
      all: [{ likes: 1 }, { likes: 20 }, { likes: 30 }],
    });
  });
});

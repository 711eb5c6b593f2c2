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
  nameFr: String @dgraph(pred: "Country.label@fr")
  capital: City @hasInverse(field: capitalOf)
  sights: [Sight]
}
union Sight = City | Post
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

describe("@hasInverse kept both ways", () => {
  it("sets the inverse of a new singular edge and removes the stale one when it changes", async () => {
    const uk = await gql(
      `mutation { addCountry(input: [{code: "UK", name: "United Kingdom", capital: {name: "London"}}]) { country { capital { name capitalOf { code } } } } }`,
    );
    expect(uk.data.addCountry.country[0].capital).toEqual({ name: "London", capitalOf: { code: "UK" } });

    const paris = await gql(
      `mutation { addCity(input: [{name: "Paris", capitalOf: {code: "FR"}}]) { city { name capitalOf { code capital { name } } } } }`,
    );
    expect(paris.data.addCity.city[0]).toEqual({
      name: "Paris",
      capitalOf: { code: "FR", capital: { name: "Paris" } },
    });

    // France's capital changes: Paris no longer points back at France.
    const lyon = await gql(
      `mutation { updateCountry(input: {filter: {code: {eq: "FR"}}, set: {capital: {name: "Lyon"}}}) { numUids country { capital { name } } } }`,
    );
    expect(lyon.data.updateCountry).toEqual({ numUids: 2, country: [{ capital: { name: "Lyon" } }] });
    const cities = await gql(`{ queryCity(order: {asc: name}) { name capitalOf { code } } }`);
    expect(cities.data.queryCity).toEqual([
      { name: "London", capitalOf: { code: "UK" } },
      { name: "Lyon", capitalOf: { code: "FR" } },
      { name: "Paris", capitalOf: null },
    ]);

    // Lyon becomes the UK's capital from the other side: London and France lose their stale edges.
    const moved = await gql(
      `mutation { updateCity(input: {filter: {name: {eq: "Lyon"}}, set: {capitalOf: {code: "UK"}}}) { numUids } }`,
    );
    expect(moved.data.updateCity.numUids).toBe(1);
    const after = await gql(`{
      queryCountry(filter: {code: {in: ["FR", "UK"]}}, order: {asc: code}) { code capital { name } }
      queryCity(order: {asc: name}) { name capitalOf { code } }
    }`);
    expect(after.data.queryCountry).toEqual([
      { code: "FR", capital: null },
      { code: "UK", capital: { name: "Lyon" } },
    ]);
    expect(after.data.queryCity).toEqual([
      { name: "London", capitalOf: null },
      { name: "Lyon", capitalOf: { code: "UK" } },
      { name: "Paris", capitalOf: null },
    ]);
  });

  it("moves a post between authors' lists when its singular author changes", async () => {
    const r = await gql(`mutation {
      updatePost(input: {filter: {title: {anyofterms: "Why"}}, set: {author: {handle: "bob"}}}) { post { title author { handle } } }
    }`);
    expect(r.data.updatePost.post).toEqual([{ title: "Why graphs", author: { handle: "bob" } }]);
    const authors = await gql(
      `{ queryAuthor(filter: {handle: {in: ["ann", "bob"]}}, order: {asc: name}) { handle posts { title } } }`,
    );
    expect(authors.data.queryAuthor).toEqual([
      { handle: "ann", posts: [{ title: "Graph databases" }] },
      { handle: "bob", posts: [{ title: "Why graphs" }] },
    ]);
  });
});

describe("update mutations", () => {
  it("sets scalars (replacing) and list values (adding); an empty set is a no-op", async () => {
    const r = await gql(`mutation {
      updatePost(input: {filter: {title: {anyofterms: "databases"}}, set: {likes: 7, tags: ["new"]}}) {
        numUids post { likes tags }
      }
    }`);
    expect(r.data.updatePost.numUids).toBe(1);
    expect(r.data.updatePost.post[0].likes).toBe(7);
    expect([...r.data.updatePost.post[0].tags].sort()).toEqual(["db", "graph", "new"]);
    const noop = await gql(
      `mutation { updatePost(input: {filter: {title: {anyofterms: "databases"}}, set: {}}) { numUids post { title } } }`,
    );
    expect(noop.data.updatePost).toEqual({ numUids: 0, post: [] });
  });

  it("removes a value only when equal, an edge to the node named, and all values with null", async () => {
    const filter = `{title: {anyofterms: "databases"}}`;
    const wrong = await gql(
      `mutation { updatePost(input: {filter: ${filter}, remove: {likes: 99, tags: ["db"]}}) { post { likes tags } } }`,
    );
    expect(wrong.data.updatePost.post[0].likes).toBe(7);
    expect([...wrong.data.updatePost.post[0].tags].sort()).toEqual(["graph", "new"]);
    const equal = await gql(
      `mutation { updatePost(input: {filter: ${filter}, remove: {likes: 7}}) { post { likes } } }`,
    );
    expect(equal.data.updatePost.post[0].likes).toBeNull();
    const all = await gql(
      `mutation { updatePost(input: {filter: ${filter}, remove: {tags: null}}) { post { tags } } }`,
    );
    expect(all.data.updatePost.post[0].tags).toEqual([]);

    // Removing an edge removes its inverse too.
    const edge = await gql(
      `mutation { updateAuthor(input: {filter: {handle: {eq: "ann"}}, remove: {posts: [{title: "ignored"}]}}) { author { posts { title } } } }`,
    );
    expect(edge.data.updateAuthor.author[0].posts).toEqual([{ title: "Graph databases" }]);
    const post = await dql(`{ q(func: anyofterms(Post.title, "databases")) { uid } }`);
    const byId = await gql(
      `mutation($p: ID!) { updateAuthor(input: {filter: {handle: {eq: "ann"}}, remove: {posts: [{id: $p}]}}) { author { posts { title } } } }`,
      { p: post.q[0].uid },
    );
    expect(byId.data.updateAuthor.author[0].posts).toEqual([]);
    const back = await gql(`query($p: ID!) { getPost(id: $p) { author { handle } } }`, { p: post.q[0].uid });
    expect(back.data.getPost.author).toBeNull();
  });

  it("updates the implementers of an interface", async () => {
    await gql(`mutation { addEditor(input: [{name: "Eve", desk: "news"}]) { numUids } }`);
    const r = await gql(`mutation {
      updateNamed(input: {filter: {name: {eq: "Eve"}}, set: {name: "Eva"}}) { numUids named { __typename name ... on Editor { desk } } }
    }`);
    expect(r.data.updateNamed).toEqual({
      numUids: 1,
      named: [{ __typename: "Editor", name: "Eva", desk: "news" }],
    });
  });

  it("refuses to set an @id value another node holds", async () => {
    const r = await gql(
      `mutation { updateCountry(input: {filter: {code: {eq: "IT"}}, set: {code: "FR"}}) { numUids } }`,
    );
    expect(r.data).toEqual({ updateCountry: null });
    expect(r.errors[0].message).toBe(
      "couldn't rewrite mutation updateCountry because failed to rewrite mutation payload because id FR already exists for field code inside type Country",
    );
    const renamed = await gql(
      `mutation { updateCountry(input: {filter: {code: {eq: "IT"}}, set: {code: "IT2"}}) { country { code name } } }`,
    );
    expect(renamed.data.updateCountry.country).toEqual([{ code: "IT2", name: "Italy" }]);
  });
});

describe("language-tagged fields", () => {
  it('writes a @dgraph(pred: "p@lang") field as that language\'s value', async () => {
    const r = await gql(
      `mutation { addCountry(input: [{code: "CH", name: "Switzerland", nameFr: "Suisse"}]) { country { name nameFr } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.addCountry.country).toEqual([{ name: "Switzerland", nameFr: "Suisse" }]);
    const d = await dql(`{ q(func: eq(Country.code, "CH")) { Country.name Country.label@fr } }`);
    expect(d.q).toEqual([{ "Country.name": "Switzerland", "Country.label@fr": "Suisse" }]);
  });
});

describe("union edges and shared Refs", () => {
  it("writes a union edge through the member Ref given, and creates a set's new node once", async () => {
    const post = await dql(`{ q(func: anyofterms(Post.title, "databases")) { uid } }`);
    const r = await gql(
      `mutation($p: ID!) {
        updateCountry(input: {filter: {code: {in: ["FR", "UK"]}}, set: {sights: [{cityRef: {name: "Nice"}}, {postRef: {id: $p}}]}}) {
          numUids
          country(order: {asc: code}) { code sights { __typename ... on City { name } ... on Post { title } } }
        }
      }`,
      { p: post.q[0].uid },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.updateCountry.numUids).toBe(3);
    // In uid order: the existing post first, then the new city.
    const sights = [
      { __typename: "Post", title: "Graph databases" },
      { __typename: "City", name: "Nice" },
    ];
    expect(r.data.updateCountry.country).toEqual([
      { code: "FR", sights },
      { code: "UK", sights },
    ]);
    const nice = await gql(`{ queryCity(filter: {name: {eq: "Nice"}}) { name } }`);
    expect(nice.data.queryCity).toHaveLength(1);
  });
});

describe("delete mutations", () => {
  it("answers the nodes as they were, deletes their predicates and the inverse edges into them", async () => {
    const r = await gql(`mutation {
      deleteAuthor(filter: {handle: {eq: "bob"}}) { msg numUids author { handle posts { title } } }
    }`);
    expect(r.data.deleteAuthor).toEqual({
      msg: "Deleted",
      numUids: 1,
      author: [{ handle: "bob", posts: [{ title: "Why graphs" }] }],
    });
    const post = await gql(`{ queryPost(filter: {title: {anyofterms: "Why"}}) { title author { handle } } }`);
    expect(post.data.queryPost).toEqual([{ title: "Why graphs", author: null }]);
    const d = await dql(
      `{ q(func: has(Author.handle)) @filter(eq(Author.handle, "bob")) { uid } t(func: type(Author)) { Author.handle } }`,
    );
    expect(d.q).toEqual([]);
    expect(d.t.map((a: Json) => a["Author.handle"]).sort()).toEqual(["ann", "cy"]);
  });

  it("deletes the implementers of an interface; a filter matching nothing deletes nothing", async () => {
    const r = await gql(
      `mutation { deleteNamed(filter: {name: {eq: "Eva"}}) { msg numUids named { name } } }`,
    );
    expect(r.data.deleteNamed).toEqual({ msg: "Deleted", numUids: 1, named: [{ name: "Eva" }] });
    const d = await dql(`{ q(func: type(Editor)) { uid } n(func: eq(Named.name, "Eva")) { uid } }`);
    expect(d).toEqual({ q: [], n: [] });
    const none = await gql(
      `mutation { deleteNamed(filter: {name: {eq: "Nobody"}}) { msg numUids named { name } } }`,
    );
    expect(none.data.deleteNamed).toEqual({ msg: "Deleted", numUids: 0, named: [] });
  });
});

describe("several mutations in one operation", () => {
  it("runs them in order; after a failure the later ones are not executed", async () => {
    const r = await gql(`mutation {
      a: addCountry(input: [{code: "NL", name: "Netherlands"}]) { numUids }
      b: addCountry(input: [{code: "NL"}]) { numUids }
      c: addCountry(input: [{code: "BE"}]) { numUids }
    }`);
    expect(r.data).toEqual({ a: { numUids: 1 }, b: null, c: null });
    expect(r.errors.map((e: Json) => e.message)).toEqual([
      "couldn't rewrite mutation addCountry because failed to rewrite mutation payload because id NL already exists for field code inside type Country",
      "Mutation addCountry was not executed because of a previous error.",
    ]);
    expect(r.errors[1].path).toEqual(["c"]);
    const be = await gql(`{ getCountry(code: "BE") { code } }`);
    expect(be.data.getCountry).toBeNull();
  });
});

/**
 * The GraphQL endpoints over HTTP with real clients: the schema through /admin/schema and /admin,
 * validation, queries through `graphql-request` (POST and GET), the same data written and read through
 * `dgraph-js-http` in DQL, bad input answered as GraphQL errors, and drops that keep or clear the schema.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import * as dgraph from "dgraph-js-http";
import { type ClientError, GraphQLClient } from "graphql-request";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle, GraphQLService } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";

const SCHEMA = `
type Country {
  code: String! @id
  name: String! @search(by: [term])
  cities: [City] @hasInverse(field: country)
}
type City {
  id: ID!
  name: String! @search(by: [exact])
  population: Int @search
  country: Country
}`;

let dir: string;
let db: GraphDBHandle;
let server: HttpServer;
let base: string;
let client: GraphQLClient;

async function post(path: string, body: string, type = "application/json") {
  const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": type }, body });
  return {
    status: res.status,
    json: (await res.json()) as Record<string, unknown> & { errors?: { message: string }[] },
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-http-"));
  db = createGraphDB({ dir });
  server = createHttpServer(db.engine, { exportDir: join(dir, "export") });
  const { port } = await server.listen(0, "127.0.0.1");
  base = `http://127.0.0.1:${port}`;
  client = new GraphQLClient(`${base}/graphql`);
});

afterAll(async () => {
  await server.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("GraphQL over HTTP", () => {
  it("answers before any schema with Dgraph's text", async () => {
    const r = await post("/graphql", JSON.stringify({ query: "{ queryCity { name } }" }));
    expect(r.json.errors?.[0].message).toBe(
      "Not resolving queries. There's no GraphQL schema in Dgraph. Use the /admin API to add a GraphQL schema",
    );
  });

  it("takes a schema at /admin/schema and serves it at /admin", async () => {
    const r = await post("/admin/schema", SCHEMA, "application/graphql");
    expect(r.json).toEqual({ data: { code: "Success", message: "Done" } });
    const admin = new GraphQLClient(`${base}/admin`);
    const got = await admin.request<{
      getGQLSchema: { id: string; schema: string; generatedSchema: string };
    }>("{ getGQLSchema { id schema generatedSchema } }");
    expect(got.getGQLSchema.schema).toBe(SCHEMA);
    expect(got.getGQLSchema.id).toMatch(/^0x[0-9a-f]+$/);
    expect(got.getGQLSchema.generatedSchema).toContain(
      "queryCity(filter: CityFilter, order: CityOrder, first: Int, offset: Int): [City]",
    );
    const health = await admin.request<{ health: { instance: string; status: string; ongoing: string[] }[] }>(
      "{ health { instance status ongoing } }",
    );
    expect(health.health).toEqual([{ instance: "alpha", status: "healthy", ongoing: [] }]);
    const probe = await (await fetch(`${base}/probe/graphql`)).json();
    expect(probe).toMatchObject({ status: "up" });
  });

  it("validates without applying, and refuses a bad update while the old schema keeps serving", async () => {
    const ok = await post("/admin/schema/validate", SCHEMA, "application/graphql");
    expect(ok).toEqual({
      status: 200,
      json: { errors: [{ message: "Schema is valid", extensions: { code: "success" } }] },
    });
    const bad = await post(
      "/admin/schema/validate",
      "type T {\n  a: ID\n  b: ID\n  n: Int\n}",
      "application/graphql",
    );
    expect(bad.status).toBe(400);
    expect(bad.json.errors?.[0]).toEqual({
      message:
        "input:1: Fields a and b are listed as IDs for type T, but a type can have only one ID field. Pick a single field as the ID for type T.",
      extensions: { code: "ErrorInvalidRequest" },
    });
    const admin = new GraphQLClient(`${base}/admin`);
    const failed = await admin
      .request(
        'mutation { updateGQLSchema(input: { set: { schema: "type T { id: ID! }" } }) { gqlSchema { id } } }',
      )
      .catch((e: ClientError) => e.response);
    expect((failed as { errors: { message: string }[] }).errors[0].message).toBe(
      "resolving updateGQLSchema failed because input:1: Type T; is invalid, a type must have atleast one field that is not of ID! type and doesn't have @custom/@lambda directive.",
    );
    const still = await client.request<{ queryCity: unknown[] }>("{ queryCity { name } }");
    expect(still.queryCity).toEqual([]);
  });

  it("serves data written through DQL by dgraph-js-http, POST and GET", async () => {
    const dql = new dgraph.DgraphClient(new dgraph.DgraphClientStub(base));
    const txn = dql.newTxn();
    await txn.mutate({
      setJson: [
        {
          uid: "_:fr",
          "dgraph.type": "Country",
          "Country.code": "FR",
          "Country.name": "French Republic",
          "Country.cities": [
            {
              uid: "_:paris",
              "dgraph.type": "City",
              "City.name": "Paris",
              "City.population": 2100000,
              "City.country": { uid: "_:fr" },
            },
            {
              uid: "_:lyon",
              "dgraph.type": "City",
              "City.name": "Lyon",
              "City.population": 520000,
              "City.country": { uid: "_:fr" },
            },
          ],
        },
      ],
    });
    await txn.commit();
    const r = await client.request<{ getCountry: unknown; queryCity: unknown[] }>(
      `query($code: String!) {
        getCountry(code: $code) { name cities(order: { desc: population }, first: 1) { name } citiesAggregate { count populationSum } }
        queryCity(filter: { name: { eq: "Lyon" } }) { name country { code } }
      }`,
      { code: "FR" },
    );
    expect(r).toEqual({
      getCountry: {
        name: "French Republic",
        cities: [{ name: "Paris" }],
        citiesAggregate: { count: 2, populationSum: 2620000 },
      },
      queryCity: [{ name: "Lyon", country: { code: "FR" } }],
    });
    const query = encodeURIComponent(
      '{ queryCountry(filter: { name: { anyofterms: "republic" } }) { code } }',
    );
    const get = await (await fetch(`${base}/graphql?query=${query}`)).json();
    expect(get).toEqual({ data: { queryCountry: [{ code: "FR" }] } });
  });

  it("exports data, DQL schema and GraphQL schema that load back into an empty database", async () => {
    const admin = new GraphQLClient(`${base}/admin`);
    const r = await admin.request<{ export: { response: { code: string }; exportedFiles: string[] } }>(
      'mutation { export(input: { format: "rdf" }) { response { code message } exportedFiles } }',
    );
    expect(r.export.response.code).toBe("Success");
    const [data, schema, gql] = r.export.exportedFiles.map((f) =>
      gunzipSync(readFileSync(join(dir, "export", f))).toString(),
    );
    expect(r.export.exportedFiles.map((f) => f.split("/").pop())).toEqual([
      "g01.rdf.gz",
      "g01.schema.gz",
      "g01.gql_schema.gz",
    ]);
    expect(data).toMatch(/^<0x[0-9a-f]+> <City.name> "Lyon"\^\^<xs:string> <0x0> \.$/m);
    expect(schema).toContain("<Country.code>:string @index(hash) @upsert .");
    expect(gql).toBe(SCHEMA);
    const json = await admin.request<{ export: { exportedFiles: string[] } }>(
      'mutation { export(input: { format: "json" }) { exportedFiles } }',
    );
    const rows = JSON.parse(
      gunzipSync(readFileSync(join(dir, "export", json.export.exportedFiles[0]))).toString(),
    );
    expect(rows).toContainEqual(expect.objectContaining({ namespace: "0x0", "City.name": "Lyon" }));

    const copy = createGraphDB({ dir: join(dir, "copy") });
    try {
      await copy.engine.alter({ schema });
      // The export keeps the nodes' uids: lease them first, as Dgraph's live loader has Zero do.
      const top = Math.max(...[...data.matchAll(/<0x([0-9a-f]+)>/g)].map((m) => Number.parseInt(m[1], 16)));
      copy.engine.assignUids(top);
      await copy.engine.bulkLoad([data]);
      const graphql = new GraphQLService(copy.engine);
      await graphql.updateSchema(0, gql);
      const back = await graphql.execute(0, {
        query: "{ queryCountry { code cities(order: { asc: name }) { name } } }",
      });
      expect(JSON.parse(JSON.stringify(back))).toEqual({
        data: { queryCountry: [{ code: "FR", cities: [{ name: "Lyon" }, { name: "Paris" }] }] },
      });
    } finally {
      await copy.close();
    }
    const bad = await admin
      .request('mutation { export(input: { format: "csv" }) { exportedFiles } }')
      .catch((e: ClientError) => e.response);
    expect((bad as { errors: { message: string }[] }).errors[0].message).toBe("invalid export format: csv");
  });

  it("answers bad input as GraphQL errors and keeps serving", async () => {
    const malformed = await post("/graphql", JSON.stringify({ query: "{ queryCity { name " }));
    expect(malformed.json.errors?.[0].message).toMatch(/^Syntax Error: Expected Name, found <EOF>\./);
    const unknown = await post("/graphql", JSON.stringify({ query: "{ queryCity { nme } }" }));
    expect(unknown.json.errors?.[0].message).toBe(
      'Cannot query field "nme" on type "City". Did you mean "name"?',
    );
    const variables = await post(
      "/graphql",
      JSON.stringify({ query: "query($n: Int) { queryCity(first: $n) { name } }", variables: { n: "x" } }),
    );
    expect(variables.json.errors?.[0].message).toMatch(
      /^Variable "\$n" got invalid value "x"; Int cannot represent non-integer value/,
    );
    const notJson = await post("/graphql", "{not json", "application/json");
    expect(notJson.status).toBe(400);
    const plain = await post("/graphql", JSON.stringify({ query: "{ queryCity { name } }" }), "text/plain");
    expect(plain.status).toBe(400);
    const viaGet = await (
      await fetch(
        `${base}/graphql?query=${encodeURIComponent("mutation { deleteCity(filter: {}) { msg } }")}`,
      )
    ).json();
    expect(viaGet.errors[0].message).toBe("GET requests can only run queries, not mutations");
    const after = await client.request<{ queryCity: unknown[] }>("{ queryCity { name } }");
    expect(after.queryCity).toHaveLength(2);
  });

  it("keeps the schema on a DATA drop and clears it with drop_all", async () => {
    const dropData = await post("/alter", JSON.stringify({ drop_op: "DATA" }));
    expect(dropData.json).toMatchObject({ data: { code: "Success" } });
    const empty = await client.request<{ queryCity: unknown[] }>("{ queryCity { name } }");
    expect(empty.queryCity).toEqual([]);
    await post("/alter", JSON.stringify({ drop_all: true }));
    const gone = await post("/graphql", JSON.stringify({ query: "{ queryCity { name } }" }));
    expect(gone.json.errors?.[0].message).toMatch(/There's no GraphQL schema in Dgraph/);
  });
});

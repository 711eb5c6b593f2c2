/**
 * `@remoteResponse(name:)` over HTTP with `graphql-request`, against a loopback REST API and lambda server:
 * fields of `@remote` types read the named key of the answer (nested objects and lists too, aliases kept),
 * never the key of the field's own name; a missing non-null one triggers Dgraph's null propagation; the
 * same for `@custom` fields of stored types and `@lambda` answers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ClientError, GraphQLClient } from "graphql-request";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";

const PROFILES: Record<string, unknown> = {
  ann: {
    full_name: "Ann Smith",
    fullName: "not this one",
    age: 41,
    nick_name: "annie",
    labels: ["admin", "ops"],
    home_address: { postal_code: "75001", city: "Paris", zip: "not this one" },
  },
  // No `nick_name`: the non-null `nick` is missing.
  bob: { full_name: "Bob Jones", nick: "not this one" },
};

let dir: string;
let db: GraphDBHandle;
let api: Server;
let server: HttpServer;
let client: GraphQLClient;

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => resolve(text));
  });
}

beforeAll(async () => {
  api = createServer(async (req, res) => {
    const body = await read(req);
    const send = (v: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(v));
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/profile/")) return send(PROFILES[url.pathname.slice("/profile/".length)]);
    if (url.pathname === "/profiles") return send([PROFILES.ann, { full_name: "Cy", nick_name: "c" }]);
    if (url.pathname === "/lambda") {
      const { args } = JSON.parse(body) as { args: { name: string } };
      return send(PROFILES[args.name]);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), "graphql-remote-response-"));
  db = createGraphDB({ dir });
  server = createHttpServer(db.engine, { graphql: { lambdaUrl: `${base}/lambda` } });
  const { port } = await server.listen(0, "127.0.0.1");
  const graph = `http://127.0.0.1:${port}`;
  const schema = `
type Address @remote {
  zip: String @remoteResponse(name: "postal_code")
  city: String
}
type Profile @remote {
  fullName: String @remoteResponse(name: "full_name")
  age: Int
  nick: String! @remoteResponse(name: "nick_name")
  tags: [String] @remoteResponse(name: "labels")
  address: Address @remoteResponse(name: "home_address")
}
type Person {
  id: ID!
  name: String! @search(by: [hash])
  profile: Profile @custom(http: { url: "${base}/profile/$name", method: GET })
}
type Query {
  profile(name: String!): Profile @custom(http: { url: "${base}/profile/$name", method: GET })
  profiles: [Profile] @custom(http: { url: "${base}/profiles", method: GET })
  lambdaProfile(name: String!): Profile @lambda
}`;
  const res = await fetch(`${graph}/admin/schema`, { method: "POST", body: schema });
  expect(await res.json()).toEqual({ data: { code: "Success", message: "Done" } });
  client = new GraphQLClient(`${graph}/graphql`);
  await client.request(`mutation { addPerson(input: [{ name: "ann" }]) { numUids } }`);
});

afterAll(async () => {
  await server.close();
  await db.close();
  await new Promise((resolve) => api.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const ANN = {
  fullName: "Ann Smith",
  age: 41,
  nick: "annie",
  tags: ["admin", "ops"],
  address: { zip: "75001", city: "Paris" },
};

describe("@remoteResponse", () => {
  it("reads each field of a @custom query's answer from its remote key, nested objects and lists too", async () => {
    const r = await client.request<{ profile: unknown }>(
      `{ profile(name: "ann") { fullName age nick tags address { zip city } } }`,
    );
    expect(r.profile).toEqual(ANN);
  });

  it("keeps the client's aliases, in lists of answers too", async () => {
    const r = await client.request<{ all: unknown[] }>(`{ all: profiles { n: fullName nick also: nick } }`);
    expect(r.all).toEqual([
      { n: "Ann Smith", nick: "annie", also: "annie" },
      { n: "Cy", nick: "c", also: "c" },
    ]);
  });

  it("treats a missing remote key of a non-null field as missing, whatever the answer's other keys", async () => {
    const failed = await client
      .request(`{ profile(name: "bob") { fullName nick } }`)
      .catch((e: ClientError) => e.response);
    expect(failed).toMatchObject({
      data: { profile: null },
      errors: [
        {
          message:
            "Non-nullable field 'nick' (type String!) was not present in result from Dgraph.  GraphQL error propagation triggered.",
          path: ["profile", "nick"],
        },
      ],
    });
  });

  it("applies to @custom fields of stored types and to @lambda answers", async () => {
    const r = await client.request<{ queryPerson: unknown[]; lambdaProfile: unknown }>(
      `{ queryPerson { name profile { fullName address { zip } } } lambdaProfile(name: "ann") { fullName tags } }`,
    );
    expect(r.queryPerson).toEqual([
      { name: "ann", profile: { fullName: "Ann Smith", address: { zip: "75001" } } },
    ]);
    expect(r.lambdaProfile).toEqual({ fullName: "Ann Smith", tags: ["admin", "ops"] });
  });
});

/**
 * The platform's embedded graph database as an attacker on this machine meets it: every transport needs a
 * login, Dgraph's default groot password opens nothing, an app's own credentials open only its namespace
 * (its drop-all too), and a web page's text/plain POST changes nothing. Each app's data stays whole.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { credentials, Metadata } from "@grpc/grpc-js";
import * as dgraph from "dgraph-js";
import * as dgraphHttp from "dgraph-js-http-23";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveSecret } from "../src/secrets/derived-secret.ts";
import { GRAPH_APP } from "./support/builds.ts";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

describe("the platform's graph database, per app and authenticated", () => {
  let t: TestPlatform;
  const keys: Record<string, string> = {};
  const stubs: dgraph.DgraphClientStub[] = [];

  const names = async (app: string) => {
    const res = await t.gql(app, "{ names }", keys[app]);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.names as string[];
  };
  const raw = async (path: string, body: string, headers: Record<string, string>) => {
    const res = await fetch(t.platform.graphdb.httpUrl + path, { method: "POST", headers, body });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
  };
  const namespaceOf = async (app: string): Promise<number> =>
    JSON.parse(await readFile(join(t.dataDir, "graph-namespaces.json"), "utf8")).apps[app];
  /** What the platform gives an app's connection: here as if a tenant had learnt its own credentials. */
  const appPassword = async (namespace: number) => {
    const key = Buffer.from((await readFile(join(t.dataDir, "master.key"), "utf8")).trim(), "base64");
    return deriveSecret(key, `graphdb-namespace-${namespace}-groot`);
  };
  const grpcStub = () => {
    const stub = new dgraph.DgraphClientStub(t.platform.graphdb.grpcTarget, credentials.createInsecure());
    stubs.push(stub);
    return stub;
  };

  beforeAll(async () => {
    t = await startTestPlatform();
    for (const app of ["alpha", "beta"]) {
      const created = await t.api("POST", "/api/apps", { name: app });
      expect((await t.deploy(app, await t.archive(GRAPH_APP), created.body.deployToken)).status).toBe(201);
      keys[app] = (await t.api("POST", `/api/apps/${app}/keys`, { name: "k" })).body.secret;
    }
    expect(
      (await t.gql("alpha", 'mutation { seed(names: ["Alice", "Bob"]) }', keys.alpha)).body.data.seed,
    ).toBe(true);
    expect((await t.gql("beta", 'mutation { seed(names: ["Carol"]) }', keys.beta)).body.data.seed).toBe(true);
  });
  afterAll(async () => {
    for (const s of stubs) s.close();
    await t?.close();
  });

  it("puts each app in a namespace of its own", async () => {
    const alpha = await namespaceOf("alpha");
    const beta = await namespaceOf("beta");
    expect(alpha).toBeGreaterThan(0);
    expect(beta).toBeGreaterThan(0);
    expect(alpha).not.toBe(beta);
  });

  it("refuses HTTP requests without a login: reads, writes and drop_all", async () => {
    const query = await raw("/query", "{ q(func: has(name)) { name } }", {
      "Content-Type": "application/dql",
    });
    expect(query.body.errors[0].message).toContain("no accessJwt available");
    const drop = await raw("/alter", '{"drop_all": true}', { "Content-Type": "application/json" });
    expect(drop.body.errors[0].message).toContain("no accessJwt available");
    const mutate = await raw("/mutate?commitNow=true", '{"set": [{"name": "Mallory"}]}', {
      "Content-Type": "application/json",
    });
    expect(mutate.body.errors).toHaveLength(1);
    expect(await names("alpha")).toEqual(["Alice", "Bob"]);
    expect(await names("beta")).toEqual(["Carol"]);
  });

  it("refuses a web page's text/plain drop_all, and sends it no CORS headers", async () => {
    const res = await raw("/alter", '{"drop_all": true}', {
      "Content-Type": "text/plain",
      Origin: "https://evil.example",
    });
    expect(res.body.errors[0].message).toMatch(/refuses|accessJwt/);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(await names("alpha")).toEqual(["Alice", "Bob"]);
  });

  it("refuses gRPC calls without a login: Query and DropAll", async () => {
    const client = new dgraph.DgraphClient(grpcStub());
    await expect(client.newTxn({ readOnly: true }).query("{ q(func: has(name)) { name } }")).rejects.toThrow(
      /accessJwt|PermissionDenied|PERMISSION_DENIED|Unauthenticated|UNAUTHENTICATED/i,
    );
    const op = new dgraph.Operation();
    op.setDropAll(true);
    await expect(client.alter(op, new Metadata())).rejects.toThrow();
    expect(await names("alpha")).toEqual(["Alice", "Bob"]);
    expect(await names("beta")).toEqual(["Carol"]);
  });

  it("gives Dgraph's default groot password nothing, in any namespace", async () => {
    for (const namespace of [0, await namespaceOf("alpha"), await namespaceOf("beta")]) {
      const client = new dgraphHttp.DgraphClient(new dgraphHttp.DgraphClientStub(t.platform.graphdb.httpUrl));
      await expect(client.loginIntoNamespace("groot", "password", namespace)).rejects.toThrow(
        /invalid username or password/,
      );
    }
  });

  it("lets the operator's groot (namespace 0) in, where no app's data is", async () => {
    const password = (await readFile(t.platform.graphdb.grootPasswordFile, "utf8")).trim();
    const client = new dgraphHttp.DgraphClient(new dgraphHttp.DgraphClientStub(t.platform.graphdb.httpUrl));
    await client.loginIntoNamespace("groot", password, 0);
    const res = await client.newTxn({ readOnly: true }).query("{ q(func: has(name)) { name } }");
    expect(res.data).toEqual({ q: [] });
  });

  it("opens only an app's own namespace with its credentials; its drop-all drops only its data", async () => {
    const alpha = await namespaceOf("alpha");
    const beta = await namespaceOf("beta");
    const password = await appPassword(alpha);
    // Alpha's password is not beta's, nor the galaxy's.
    const other = new dgraphHttp.DgraphClient(new dgraphHttp.DgraphClientStub(t.platform.graphdb.httpUrl));
    await expect(other.loginIntoNamespace("groot", password, beta)).rejects.toThrow(
      /invalid username or password/,
    );
    await expect(other.loginIntoNamespace("groot", password, 0)).rejects.toThrow(
      /invalid username or password/,
    );

    const stub = grpcStub();
    await stub.loginIntoNamespace("groot", password, alpha);
    const client = new dgraph.DgraphClient(stub);
    const res = await client
      .newTxn({ readOnly: true })
      .query("{ q(func: has(name), orderasc: name) { name } }");
    expect(res.getJson()).toEqual({ q: [{ name: "Alice" }, { name: "Bob" }] });
    // Reading a uid of another namespace finds nothing there.
    const op = new dgraph.Operation();
    op.setDropAll(true);
    await client.alter(op);
    expect(await names("alpha")).toEqual([]);
    expect(await names("beta")).toEqual(["Carol"]);
  });

  it("counts failed logins over HTTP and gRPC together", async () => {
    const user = `guesser-${Date.now()}`;
    const http = new dgraphHttp.DgraphClientStub(t.platform.graphdb.httpUrl);
    for (let i = 0; i < 10; i++) {
      await expect(http.loginIntoNamespace(user, `guess-${i}`, 0)).rejects.toThrow(
        /invalid username or password/,
      );
    }
    // The eleventh guess, over the other transport, meets the same count.
    await expect(grpcStub().loginIntoNamespace(user, "guess-10", 0)).rejects.toThrow(
      /too many failed logins/i,
    );
  });
});

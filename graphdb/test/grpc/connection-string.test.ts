/** `dgraph://` connection strings and plain gRPC targets, as dgraph-js `open()` reads them. */
import * as dgraph from "dgraph-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDgraphConnectionString, parseGrpcTarget } from "../../src/index.ts";
import { type Harness, startHarness } from "./harness.ts";

describe("parseDgraphConnectionString", () => {
  it("reads host, port, sslmode and the bearer token", () => {
    expect(
      parseDgraphConnectionString("dgraph://localhost:9080?sslmode=disable&bearertoken=abc.def-123"),
    ).toEqual({
      host: "localhost",
      port: 9080,
      target: "localhost:9080",
      sslmode: "disable",
      bearerToken: "abc.def-123",
      params: { sslmode: "disable", bearertoken: "abc.def-123" },
    });
  });

  it("defaults sslmode to disable and accepts require / verify-ca", () => {
    expect(parseDgraphConnectionString("dgraph://db.example.com:443").sslmode).toBe("disable");
    expect(parseDgraphConnectionString("dgraph://db.example.com:443?sslmode=require").sslmode).toBe(
      "require",
    );
    expect(parseDgraphConnectionString("dgraph://db.example.com:443?sslmode=verify-ca").sslmode).toBe(
      "verify-ca",
    );
  });

  it("reads credentials, an API key, IPv6 hosts and percent-encoding", () => {
    const c = parseDgraphConnectionString("dgraph://groot:p%40ss%2Fword@127.0.0.1:9180?apikey=k%2B1&x=y");
    expect(c).toMatchObject({ username: "groot", password: "p@ss/word", apiKey: "k+1", port: 9180 });
    expect(c.params).toEqual({ apikey: "k+1", x: "y" });
    expect(c.bearerToken).toBeUndefined();
    expect(parseDgraphConnectionString("dgraph://[::1]:9080")).toMatchObject({
      host: "::1",
      target: "[::1]:9080",
    });
    expect(parseDgraphConnectionString("dgraph://h:1?bearertoken=a%20b").bearerToken).toBe("a b");
  });

  it("rejects what dgraph-js rejects, with its messages", () => {
    const bad: [string, string][] = [
      ["http://localhost:9080", "Invalid scheme: must start with dgraph://"],
      ["dgraph://:9080", "Invalid connection string"],
      ["dgraph://localhost", "Invalid connection string: port required"],
      ["dgraph://localhost:9080?apikey=a&bearertoken=b", "Both apikey and bearertoken cannot be provided"],
      [
        "dgraph://localhost:9080?sslmode=prefer",
        "Invalid SSL mode: prefer (must be one of disable, require, verify-ca)",
      ],
      [
        "dgraph://groot@localhost:9080",
        "Invalid connection string: password required when username is provided",
      ],
      ["dgraph://localhost:99999", "Invalid connection string"],
      ["dgraph://localhost:0", "Invalid connection string: invalid port 0"],
      ["localhost:9080", "Invalid scheme: must start with dgraph://"],
    ];
    for (const [s, message] of bad) expect(() => parseDgraphConnectionString(s), s).toThrow(message);
  });

  it("agrees with dgraph-js open() on what is invalid", async () => {
    for (const s of [
      "http://localhost:9080",
      "dgraph://localhost",
      "dgraph://localhost:9080?sslmode=prefer",
    ]) {
      await expect(dgraph.open(s)).rejects.toThrow();
      expect(() => parseDgraphConnectionString(s)).toThrow();
    }
  });
});

describe("parseGrpcTarget", () => {
  it("accepts a plain host:port or a dgraph:// string", () => {
    expect(parseGrpcTarget("localhost:9080")).toEqual({
      host: "localhost",
      port: 9080,
      target: "localhost:9080",
      sslmode: "disable",
      params: {},
    });
    expect(parseGrpcTarget("[::1]:9080").target).toBe("[::1]:9080");
    expect(parseGrpcTarget("dgraph://h:1?bearertoken=t")).toMatchObject({ target: "h:1", bearerToken: "t" });
    expect(() => parseGrpcTarget("localhost")).toThrow("Invalid gRPC target: localhost");
    expect(() => parseGrpcTarget("h:70000")).toThrow("Invalid gRPC target");
  });
});

describe("a connection string against the server", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it("dgraph-js open() connects and logs in with the user in the connection string", async () => {
    const conn = `dgraph://groot:password@${h.grpcAddress}?sslmode=disable`;
    const parsed = parseDgraphConnectionString(conn);
    expect(parsed.target).toBe(h.grpcAddress);
    const client = await dgraph.open(conn);
    try {
      const res = await client.newTxn({ readOnly: true }).query("{ q(func: uid(1)) { uid } }");
      expect(res.getJson()).toEqual({ q: [{ uid: "0x1" }] });
    } finally {
      client.close();
    }
    await expect(dgraph.open(`dgraph://groot:wrong@${h.grpcAddress}`)).rejects.toThrow(
      "Failed to sign in user: 2 UNKNOWN: invalid username or password",
    );
  });
});

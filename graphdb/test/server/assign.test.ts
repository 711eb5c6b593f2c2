/** GET /assign?what=uids&num=N (Dgraph Zero's uid lease) over loopback against the real engine. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";
import { post, request } from "./http-client.ts";

const SECRET = new TextEncoder().encode("0123456789abcdef0123456789abcdef");
let opened: { dir: string; db: GraphDBHandle; server: HttpServer }[] = [];

afterEach(async () => {
  for (const o of opened) {
    await o.server.close();
    await o.db.close();
    rmSync(o.dir, { recursive: true, force: true });
  }
  opened = [];
});

async function start(acl = false): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "trellis-assign-"));
  const db = createGraphDB({ dir, acl });
  const server = createHttpServer(db.engine, acl ? { acl, aclSecret: SECRET } : {});
  const { port } = await server.listen(0, "127.0.0.1");
  opened.push({ dir, db, server });
  return `http://127.0.0.1:${port}`;
}

const get = (base: string, path: string, headers: Record<string, string> = {}) =>
  request(base, path, { method: "GET", headers });

describe("GET /assign", () => {
  it("leases consecutive, disjoint uid ranges that mutations may then name", async () => {
    const base = await start();
    const a = await get(base, "/assign?what=uids&num=100");
    expect(a.status).toBe(200);
    expect(a.headers["content-type"]).toBe("application/json");
    const first = a.json() as { startId: string; endId: string; readOnly: string };
    expect(Number(first.endId) - Number(first.startId)).toBe(99);
    expect(first.readOnly).toBe("0");
    const second = (await get(base, "/assign?what=uids&num=0x10")).json() as {
      startId: string;
      endId: string;
    };
    expect(Number(second.startId)).toBe(Number(first.endId) + 1);
    expect(Number(second.endId) - Number(second.startId)).toBe(15);

    // A leased uid is valid in a mutation; one above every lease is refused.
    const uid = `0x${Number(first.endId).toString(16)}`;
    const ok = (
      await post(base, "/mutate?commitNow=true", "application/rdf", `{ set { <${uid}> <name> "x" . } }`)
    ).json() as {
      errors?: unknown;
    };
    expect(ok.errors).toBeUndefined();
    const beyond = `0x${(Number(second.endId) + 1_000_000).toString(16)}`;
    const refused = (
      await post(base, "/mutate?commitNow=true", "application/rdf", `{ set { <${beyond}> <name> "y" . } }`)
    ).json() as {
      errors?: { message: string }[];
    };
    expect(refused.errors?.[0].message).toMatch(/cannot be greater than lease/);
    // New blank nodes are allocated above the leased ranges.
    const blank = (
      await post(base, "/mutate?commitNow=true", "application/rdf", '{ set { _:b <name> "z" . } }')
    ).json() as {
      data: { uids: { b: string } };
    };
    expect(Number(blank.data.uids.b)).toBeGreaterThan(Number(second.endId));
  });

  it("answers bad requests as Dgraph Zero does", async () => {
    const base = await start();
    const noNum = await get(base, "/assign?what=uids");
    expect(noNum.status).toBe(400);
    expect(noNum.json()).toEqual({
      errors: [{ message: "num not passed", extensions: { code: "ErrorInvalidRequest" } }],
    });
    const badNum = await get(base, "/assign?what=uids&num=ten");
    expect(badNum.status).toBe(400);
    expect((badNum.json() as { errors: { message: string }[] }).errors[0].message).toBe(
      "Error while parsing num",
    );
    const what = await get(base, "/assign?what=things&num=5");
    expect((what.json() as { errors: { message: string }[] }).errors[0].message).toBe(
      "Invalid what: [things]. Must be one of: [uids, timestamps, nsids]",
    );
    const zero = await get(base, "/assign?what=uids&num=0");
    expect((zero.json() as { errors: { message: string }[] }).errors[0].message).toBe("Nothing to be leased");
    const method = await request(base, "/assign?what=uids&num=5", { method: "POST" });
    expect(method.status).toBe(400);
    expect((method.json() as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe(
      "ErrorInvalidMethod",
    );
  });

  it("is for guardians only when ACL is on", async () => {
    const base = await start(true);
    const anonymous = (await get(base, "/assign?what=uids&num=5")).json() as {
      errors?: unknown[];
      startId?: string;
    };
    expect(anonymous.errors?.length).toBe(1);
    expect(anonymous.startId).toBeUndefined();
    const login = (
      await post(base, "/login", "application/json", '{"userid":"groot","password":"password"}')
    ).json() as {
      data: { accessJWT: string };
    };
    const granted = (
      await get(base, "/assign?what=uids&num=5", { "x-dgraph-accesstoken": login.data.accessJWT })
    ).json() as { startId?: string; endId?: string };
    expect(Number(granted.endId) - Number(granted.startId)).toBe(4);
  });
});

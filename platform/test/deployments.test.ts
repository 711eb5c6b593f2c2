import { mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBuild } from "./support/builds.ts";
import { startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

/** A tar.gz made of raw entries (for archives `trellis build` would never make). */
async function rawArchive(
  cwd: string,
  entries: string[],
  options: tar.TarOptionsWithAliasesAsyncNoFile = {},
) {
  const chunks: Buffer[] = [];
  for await (const chunk of tar.c({ gzip: true, cwd, ...options }, entries))
    chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Rewrites the name of the first tar entry (same length), then re-gzips. */
async function renamedEntry(archive: Buffer, from: string, to: string): Promise<Buffer> {
  const { gunzipSync, gzipSync } = await import("node:zlib");
  const raw = gunzipSync(archive);
  const header = raw.subarray(0, 512);
  header.write(to.padEnd(from.length, "\0"), 0, "latin1");
  // The header checksum: sum of the header bytes with the checksum field read as spaces.
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return gzipSync(raw);
}

describe("deployments", () => {
  let t: TestPlatform;
  let apiKey: string;
  let deployToken: string;
  const version = async () => (await t.gql("shop", "{ version }", apiKey)).body.data?.version;
  const activeId = async () => (await t.api("GET", "/api/apps/shop")).body.app.activeDeploymentId;

  beforeAll(async () => {
    t = await startTestPlatform({ postgres: true, keepDeployments: 3 });
    ({ apiKey, deployToken } = await t.deployedApp("shop"));
  });
  afterAll(() => t?.close());

  /** Uploads `archive`, expects a rejection mentioning `reason`, and that v1 still serves. */
  const expectRejected = async (archive: Buffer, reason: RegExp) => {
    const before = await activeId();
    const res = await t.deploy("shop", archive, deployToken);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("DEPLOY_REJECTED");
    expect(res.body.error.message).toMatch(reason);
    expect(res.body.error.message).toContain(`deployment ${before} keeps serving`);
    expect(await activeId()).toBe(before);
    expect(await version()).toBe("v1");
    const [latest] = (await t.api("GET", "/api/apps/shop/deployments")).body.deployments;
    expect(latest).toMatchObject({ status: "failed", message: expect.stringMatching(reason) });
  };

  it("rejects an invalid manifest while the current deployment keeps serving", async () => {
    expect(await version()).toBe("v1");
    await expectRejected(await t.archive({ version: "v2", manifest: "{ connections: " }), /trellis\.json/);
  });

  it("rejects a corrupt archive", async () => {
    const good = await t.archive({ version: "v2" });
    await expectRejected(good.subarray(0, good.length - 100), /corrupt/);
    await expectRejected(Buffer.from("this is not gzip"), /not a gzip file/);
    await expectRejected(Buffer.alloc(0), /empty/);
  });

  it("rejects a build whose component is missing", async () => {
    await expectRejected(
      await t.archive({ version: "v2", resolvers: null }),
      /component resolvers\.mjs was not found/,
    );
  });

  it("rejects path traversal, absolute paths and links", async () => {
    const dir = join(t.tmp, "evil");
    await writeBuild(dir, { version: "v2" });
    const traversal = await renamedEntry(
      await rawArchive(dir, ["trellis.json"]),
      "trellis.json",
      "../../x.json",
    );
    await expectRejected(traversal, /points outside the build folder/);
    const absolute = await renamedEntry(
      await rawArchive(dir, ["trellis.json"]),
      "trellis.json",
      "/tmp/x.json",
    );
    await expectRejected(absolute, /absolute path/);
    await symlink("/etc/passwd", join(dir, "passwd"));
    await expectRejected(
      await rawArchive(dir, ["trellis.json", "schema.graphql", "resolvers.mjs", "passwd"]),
      /SymbolicLink/,
    );
    // Nothing escaped into the data dir.
    expect(await readdir(join(t.dataDir, "apps"))).toEqual(["shop"]);
  });

  it("accepts a build wrapped in a build/ folder and switches to it", async () => {
    const root = join(t.tmp, "wrapped");
    await mkdir(root, { recursive: true });
    await writeBuild(join(root, "build"), { version: "v2" });
    await writeFile(join(root, "ignored.txt"), "not in the archive");
    const res = await t.deploy("shop", await rawArchive(root, ["build"]), deployToken);
    expect(res.status).toBe(201);
    expect(res.body.endpoint).toBe(`${t.platform.url}/apps/shop/graphql`);
    expect(await version()).toBe("v2");
  });

  it("rolls back to a previous deployment and forward again", async () => {
    const list = (await t.api("GET", "/api/apps/shop/deployments")).body.deployments;
    const [v2, ...rest] = list.filter((d: { status: string }) => d.status !== "failed");
    const v1 = rest[rest.length - 1];
    expect(v2.status).toBe("active");
    expect(v1.status).toBe("previous");
    const back = await t.api("POST", `/api/apps/shop/deployments/${v1.id}/rollback`);
    expect(back.body.deployment).toMatchObject({ id: v1.id, status: "active" });
    expect(await version()).toBe("v1");
    const statuses = (await t.api("GET", "/api/apps/shop/deployments")).body.deployments;
    expect(statuses.find((d: { id: string }) => d.id === v2.id).status).toBe("previous");
    await t.api("POST", `/api/apps/shop/deployments/${v2.id}/rollback`);
    expect(await version()).toBe("v2");
    const failed = list.find((d: { status: string }) => d.status === "failed");
    expect((await t.api("POST", `/api/apps/shop/deployments/${failed.id}/rollback`)).status).toBe(400);
    expect((await t.api("POST", "/api/apps/shop/deployments/nope/rollback")).status).toBe(404);
  });

  it("keeps only the newest deployments (here 3) and their files", async () => {
    for (const v of ["v3", "v4", "v5"]) {
      expect((await t.deploy("shop", await t.archive({ version: v }), deployToken)).status).toBe(201);
    }
    const all: { id: string; status: string }[] = (await t.api("GET", "/api/apps/shop/deployments")).body
      .deployments;
    const good = all.filter((d) => d.status !== "failed");
    expect(good.map((d) => d.status)).toEqual(["active", "previous", "previous"]);
    // Rejected uploads are kept as records (newest 3), never in place of a rollback target.
    expect(all.filter((d) => d.status === "failed")).toHaveLength(3);
    const dirs = await readdir(join(t.dataDir, "apps", "shop", "deployments"));
    expect(dirs.sort()).toEqual(good.map((d) => d.id).sort());
    expect(await version()).toBe("v5");
  });

  it("rejects an upload over the size limit", async () => {
    const small = await startTestPlatform({ postgres: true, maxUploadBytes: 1024 });
    try {
      await small.api("POST", "/api/apps", { name: "big" });
      const res = await small.deploy("big", Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(4096)]));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("DEPLOY_REJECTED");
    } finally {
      await small.close();
    }
  });
});

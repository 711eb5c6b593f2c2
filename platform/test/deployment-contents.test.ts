import { mkdir, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { packBuild } from "@trellis/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBuild } from "./support/builds.ts";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

/** A build with `static/` holding `site` (each file also with a `.br` sibling, which is not counted). */
async function siteBuild(dir: string, site: Record<string, string>): Promise<Buffer> {
  await writeBuild(dir, { manifest: JSON.stringify({ web: { spaFallback: false } }) });
  for (const [path, text] of Object.entries(site)) {
    const file = join(dir, "static", path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    await writeFile(`${file}.br`, brotliCompressSync(text));
  }
  return packBuild(dir);
}

/** The headers of `GET /` on `host`, sent to the platform on 127.0.0.1. */
function headersOf(port: number, host: string): Promise<Record<string, string | string[] | undefined>> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: "127.0.0.1", port, path: "/", headers: { host } }, (res) => {
      res.resume();
      resolve(res.headers);
    })
      .on("error", reject)
      .end();
  });
}

/** What the console shows of a deployment: its site's files, its functions, its branch and URLs. */
describe("deployment contents in the API", () => {
  let t: TestPlatform;
  let builds = 0;
  const deploy = async (archive: Buffer, branch?: string) => {
    const res = await fetch(`${t.platform.url}/api/apps/shop/deployments`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${t.platform.adminToken}`,
        "content-type": "application/gzip",
        ...(branch ? { "x-trellis-deploy-branch": branch } : {}),
      },
      body: new Uint8Array(archive),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const site = (files: Record<string, string>) => siteBuild(join(t.tmp, `site-${builds++}`), files);

  beforeAll(async () => {
    t = await startTestPlatform();
    expect((await t.api("POST", "/api/apps", { name: "shop" })).status).toBe(201);
  });
  afterAll(() => t?.close());

  it("records each deployment's static files, their size and index.html, and the app's site URL", async () => {
    const port = new URL(t.platform.url).port;
    const production = await deploy(
      await site({ "index.html": "<!doctype html><title>Shop</title>", "assets/app-1a2b3c4d.js": "x=1" }),
    );
    expect(production.status).toBe(201);
    expect(production.body.deployment.site).toEqual({ files: 2, bytes: 37, hasIndex: true });
    const preview = await deploy(await site({ "about.html": "<p>about</p>" }), "feature-x");
    expect(preview.status).toBe(201);

    const listed = (await t.api("GET", "/api/apps/shop/deployments")).body.deployments as Json[];
    expect(listed.map((d) => [d.status, d.branch, d.site, d.functions.length > 0])).toEqual([
      ["preview", "feature-x", { files: 1, bytes: 12, hasIndex: false }, true],
      ["active", null, { files: 2, bytes: 37, hasIndex: true }, true],
    ]);
    expect(listed[0].previewUrl).toBe(`http://shop--feature-x.localhost:${port}`);
    const { app } = (await t.api("GET", "/api/apps/shop")).body;
    expect(app.siteUrl).toBe(`http://shop.localhost:${port}`);

    // Functions only: no site, and the app shows no site URL.
    expect((await deploy(await t.archive())).status).toBe(201);
    const latest = (await t.api("GET", "/api/apps/shop/deployments")).body.deployments[0];
    expect(latest).toMatchObject({ status: "active", site: null });
    expect((await t.api("GET", "/api/apps/shop")).body.app.siteUrl).toBeNull();
  });

  it("refuses a branch whose preview name is another branch's, and leaves that preview to its own branch", async () => {
    const first = await deploy(await site({ "index.html": "<p>new ui</p>" }), "feature/new-ui");
    expect(first.status).toBe(201);
    expect(first.body.deployment.preview).toBe("feature-new-ui");
    // `feature-new-ui` makes the same name: refused, saying whose it is and what to do.
    const second = await deploy(await site({ "index.html": "<p>other</p>" }), "feature-new-ui");
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe(
      `branch "feature-new-ui" would deploy to preview "feature-new-ui", which is branch "feature/new-ui"'s: rename the branch, or remove that preview first (DELETE /api/apps/shop/deployments/${first.body.deployment.id})`,
    );
    // Deleting the other branch removes nothing; the preview's own branch deploys to it again.
    const other = encodeURIComponent("feature-new-ui");
    expect((await t.api("DELETE", `/api/apps/shop/previews/${other}`)).status).toBe(404);
    expect((await deploy(await site({ "index.html": "<p>new ui 2</p>" }), "feature/new-ui")).status).toBe(
      201,
    );
    const own = encodeURIComponent("feature/new-ui");
    expect((await t.api("DELETE", `/api/apps/shop/previews/${own}`)).status).toBe(200);
  });

  it("lets the console frame a site, and nothing else frame it or the console", async () => {
    const port = Number(new URL(t.platform.url).port);
    expect((await deploy(await site({ "index.html": "<!doctype html><title>Shop</title>" }))).status).toBe(
      201,
    );
    const page = await headersOf(port, "shop.localhost");
    expect(page["content-security-policy"]).toContain(`frame-ancestors ${new URL(t.platform.url).origin};`);
    expect(page["x-frame-options"]).toBeUndefined();
    expect(page["access-control-allow-origin"]).toBe("*");
    expect(page["cross-origin-resource-policy"]).toBe("cross-origin");

    const console = await headersOf(port, `127.0.0.1:${port}`);
    expect(console["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(console["content-security-policy"]).toContain("frame-src *.localhost:*");
    expect(console["x-frame-options"]).toBe("DENY");
  });
});

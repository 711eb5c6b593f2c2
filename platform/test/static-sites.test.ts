import { mkdir, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { packBuild } from "@trellis/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBuild } from "./support/builds.ts";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

const ASSET = "assets/index-3f2a1b9c.js";
const SCRIPT = `console.log(${JSON.stringify("x".repeat(2000))});\n`;

/** A manifest with a front end and, optionally, a public GraphQL endpoint. */
const webManifest = (options: { spaFallback?: boolean; publicGraphql?: boolean } = {}) =>
  JSON.stringify({
    web: { spaFallback: options.spaFallback ?? true },
    ...(options.publicGraphql
      ? { endpoints: { default: { type: "graphql", path: "/graphql", auth: "none" } } }
      : {}),
  });

interface Site {
  /** Files of static/, by path; `.br`/`.gz` siblings are added for `ASSET` and index.html. */
  [path: string]: string;
}

const page = (title: string) => `<!doctype html><html><head><title>${title}</title>
<script type="module" src="/${ASSET}"></script></head><body>${title} ${"lorem ipsum ".repeat(100)}</body></html>`;

const defaultSite = (title: string): Site => ({
  "index.html": page(title),
  [ASSET]: SCRIPT,
  "404.html": "<!doctype html><title>Lost</title>",
  "favicon.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
  ".vite/manifest.json": JSON.stringify({ "index.html": { file: ASSET, isEntry: true } }),
});

/** A build folder with a front end, packed as `trellis deploy` packs it. */
async function siteArchive(
  dir: string,
  options: { version: string; site?: Site; manifest?: string; compress?: boolean },
): Promise<Buffer> {
  await writeBuild(dir, { version: options.version, manifest: options.manifest ?? webManifest() });
  for (const [path, text] of Object.entries(options.site ?? defaultSite(options.version))) {
    const file = join(dir, "static", path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    if (options.compress !== false && (path === ASSET || path === "index.html")) {
      await writeFile(`${file}.br`, brotliCompressSync(text));
      await writeFile(`${file}.gz`, gzipSync(text));
    }
  }
  return packBuild(dir);
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw HTTP request (the path is sent as written, never normalised) with a chosen Host. */
function send(
  port: number,
  host: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        headers: { host, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("static sites", () => {
  let t: TestPlatform;
  let port: number;
  let deployToken: string;
  let apiKey: string;
  let builds = 0;
  let v1Id: string;
  const get = (path: string, headers: Record<string, string> = {}, host = "shop.localhost") =>
    send(port, host, path, { headers });
  const gql = (query: string, host = "shop.localhost", key?: string) =>
    send(port, host, "/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ query }),
    }).then((a) => ({ status: a.status, body: JSON.parse(a.body.toString()) as Json }));
  const deploy = async (archive: Buffer, branch?: string) => {
    const res = await fetch(`${t.platform.url}/api/apps/shop/deployments`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${deployToken}`,
        "content-type": "application/gzip",
        ...(branch ? { "x-trellis-deploy-branch": branch } : {}),
      },
      body: new Uint8Array(archive),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const archive = (options: Parameters<typeof siteArchive>[1]) =>
    siteArchive(join(t.tmp, `site-${builds++}`), options);
  const title = async (host = "shop.localhost") =>
    /<title>(.*?)<\/title>/.exec((await get("/", {}, host)).body.toString())?.[1];

  beforeAll(async () => {
    t = await startTestPlatform({ siteLimits: { maxFiles: 20, maxBytes: 64 * 1024 } });
    port = Number(new URL(t.platform.url).port);
    const created = await t.api("POST", "/api/apps", { name: "shop" });
    deployToken = created.body.deployToken;
    apiKey = (await t.api("POST", "/api/apps/shop/keys", { name: "test" })).body.secret;
    const first = await deploy(await archive({ version: "v1" }));
    expect(first.status).toBe(201);
    // The answer says where the pages are, as it does for a preview.
    expect(first.body.siteUrl).toBe(`http://shop.localhost:${port}`);
    v1Id = first.body.deployment.id;
  });
  afterAll(() => t?.close());

  it("serves index.html at / with its content type, no-cache and a strong ETag that answers 304", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.body.toString()).toContain("<title>v1</title>");
    // The platform's security headers, computed once for sites.
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await get("/", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await get("/", { "if-none-match": '"other"' })).status).toBe(200);
    const svg = await get("/favicon.svg");
    expect(svg.headers["content-type"]).toBe("image/svg+xml");
    expect(svg.headers["cache-control"]).toBe("no-cache");
  });

  it("serves hashed assets immutable, in the encoding the client prefers, with Vary and a true length", async () => {
    const br = await get(`/${ASSET}`, { "accept-encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);

    const gz = await get(`/${ASSET}`, { "accept-encoding": "gzip, br;q=0" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
    expect(gz.headers.etag).not.toBe(br.headers.etag);

    const plain = await get(`/${ASSET}`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect(plain.body.toString()).toBe(SCRIPT);
    expect(Number(plain.headers["content-length"])).toBe(SCRIPT.length);
    expect(
      (await get(`/${ASSET}`, { "if-none-match": br.headers.etag as string, "accept-encoding": "br" }))
        .status,
    ).toBe(304);

    const head = await send(port, "shop.localhost", `/${ASSET}`, {
      method: "HEAD",
      headers: { "accept-encoding": "br" },
    });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(br.headers["content-length"]);
    expect(head.headers["content-encoding"]).toBe("br");
    // Vite's manifest is build metadata, not a page.
    expect((await get("/.vite/manifest.json")).status).toBe(404);
  });

  it("falls back to index.html for a deep link and to the app's 404.html for a missing file", async () => {
    const deep = await get("/orders/42/items?tab=2");
    expect(deep.status).toBe(200);
    expect(deep.body.toString()).toContain("<title>v1</title>");
    // Only /graphql itself stays the gateway's: a client-side route that starts like it is the page's.
    expect((await get("/graphql-guide")).body.toString()).toContain("<title>v1</title>");
    expect(deep.headers["cache-control"]).toBe("no-cache");
    const missing = await get("/assets/nope-12345678.js");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(missing.body.toString()).toContain("<title>Lost</title>");
  });

  it("never serves a file outside the site, however the path is encoded", async () => {
    for (const path of [
      "/../trellis.json",
      "/../../../../etc/passwd",
      "/%2e%2e/trellis.json",
      "/%2E%2E%2Ftrellis.json",
      "/assets/..%2f..%2ftrellis.json",
      "/%252e%252e/trellis.json",
      "/..%5ctrellis.json",
      "/..\\trellis.json",
      "/assets/%5c..%5c..%5cresolvers.mjs",
      "/%00index.html",
      "/assets/%ZZ",
      "//../trellis.json",
    ]) {
      const res = await get(path);
      // 400: an escape Fastify cannot decode; 404: the site's own 404 page.
      expect([400, 404], path).toContain(res.status);
      expect(res.body.toString(), path).not.toMatch(/connections|resolvers|root:/);
    }
  });

  it("answers /graphql with the API key, and without one only for an endpoint declared auth none", async () => {
    const preflight = () =>
      send(port, "shop.localhost", "/graphql", {
        method: "OPTIONS",
        headers: {
          origin: "null",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
    expect((await gql("{ version }")).status).toBe(401);
    // A keyed endpoint takes no other origin's calls (no CORS); the answer to a key says so too.
    expect((await preflight()).headers["access-control-allow-origin"]).toBeUndefined();
    const keyed = await send(port, "shop.localhost", "/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ query: "{ version }" }),
    });
    expect(keyed.headers["access-control-allow-origin"]).toBeUndefined();
    expect((await gql("{ version }", "shop.localhost", apiKey)).body.data.version).toBe("v1");
    const open = await deploy(
      await archive({ version: "v1-open", manifest: webManifest({ publicGraphql: true }) }),
    );
    expect(open.status).toBe(201);
    expect((await gql("{ version }")).body.data.version).toBe("v1-open");
    // A public one answers any origin (the console's sandboxed thumbnail is an opaque one).
    const allowed = await preflight();
    expect(allowed.status).toBe(204);
    expect(allowed.headers["access-control-allow-origin"]).toBe("*");
    expect(allowed.headers["access-control-allow-headers"]).toContain("content-type");
    const answer = await send(port, "shop.localhost", "/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "null" },
      body: JSON.stringify({ query: "{ version }" }),
    });
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    // The public endpoint is the deployment's: rolling back closes it again.
    expect((await t.api("POST", `/api/apps/shop/deployments/${v1Id}/rollback`)).status).toBe(200);
    expect((await gql("{ version }")).status).toBe(401);
  });

  it("redirects {app_url}/ to the app's own host", async () => {
    const res = await send(port, "127.0.0.1", "/apps/shop/orders/1?x=1");
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`http://shop.localhost:${port}/orders/1?x=1`);
  });

  it("rejects bad sites at deploy while the current deployment keeps serving", async () => {
    const before = (await t.api("GET", "/api/apps/shop")).body.app.activeDeploymentId;
    const rejected = async (build: Buffer, reason: RegExp) => {
      const res = await deploy(build);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(reason);
      expect(res.body.error.message).toContain(`deployment ${before} keeps serving`);
      expect(await title()).toBe("v1");
      expect((await gql("{ version }", "shop.localhost", apiKey)).body.data.version).toBe("v1");
    };
    const many: Site = { "index.html": page("many") };
    for (let i = 0; i < 25; i++) many[`img/${i}.txt`] = String(i);
    await rejected(await archive({ version: "v9", site: many }), /the site has 26 files; the limit is 20/);
    await rejected(
      await archive({ version: "v9", site: { "index.html": page("big"), "big.bin": "x".repeat(70 * 1024) } }),
      /total \d+ bytes; the limit is 65536/,
    );
    await rejected(
      await archive({ version: "v9", site: { "app.html": page("no index") } }),
      /web.spaFallback is on but static\/index.html is missing/,
    );
    await rejected(
      await archive({ version: "v9", site: { "index.html": page("bs"), "a\\..\\b.js": "x" } }),
      /backslash/,
    );
  });

  it("rolls back page and functions together", async () => {
    const v2 = await deploy(await archive({ version: "v2" }));
    expect(v2.status).toBe(201);
    expect(await title()).toBe("v2");
    const v2Asset = await get(`/${ASSET}`);
    expect(v2Asset.status).toBe(200);
    await t.api("POST", `/api/apps/shop/deployments/${v1Id}/rollback`);
    expect(await title()).toBe("v1");
    expect((await gql("{ version }", "shop.localhost", apiKey)).body.data.version).toBe("v1");
    await t.api("POST", `/api/apps/shop/deployments/${v2.body.deployment.id}/rollback`);
    expect(await title()).toBe("v2");
    expect((await gql("{ version }", "shop.localhost", apiKey)).body.data.version).toBe("v2");
  });

  it("serves a branch's preview at its own host beside production, lists it and removes it", async () => {
    const res = await deploy(await archive({ version: "preview-1" }), "feature/Login_form");
    expect(res.status).toBe(201);
    expect(res.body.deployment).toMatchObject({
      status: "preview",
      branch: "feature/Login_form",
      preview: "feature-login-form",
    });
    const host = "shop--feature-login-form.localhost";
    expect(res.body.deployment.previewUrl).toBe(`http://${host}:${port}`);
    expect(res.body.siteUrl).toBe(`http://${host}:${port}`);
    expect(await title(host)).toBe("preview-1");
    expect((await gql("{ version }", host, apiKey)).body.data.version).toBe("preview-1");
    expect((await gql("{ version }", host)).status).toBe(401);
    expect(await title()).toBe("v2");
    expect((await gql("{ version }", "shop.localhost", apiKey)).body.data.version).toBe("v2");

    // A new deploy of the branch replaces its preview; main deploys to production.
    const again = await deploy(await archive({ version: "preview-2" }), "feature/Login_form");
    expect(await title(host)).toBe("preview-2");
    const listed = (await t.api("GET", "/api/apps/shop/deployments")).body.deployments as Json[];
    const previews = listed.filter((d) => d.status === "preview");
    expect(previews).toHaveLength(1);
    expect(previews[0]).toMatchObject({ id: again.body.deployment.id, previewUrl: `http://${host}:${port}` });
    expect(listed.find((d) => d.status === "active").previewUrl).toBeNull();
    expect((await t.api("POST", `/api/apps/shop/deployments/${previews[0].id}/rollback`)).status).toBe(400);

    const removed = await t.api(
      "DELETE",
      `/api/apps/shop/deployments/${previews[0].id}`,
      undefined,
      deployToken,
    );
    expect(removed.status).toBe(200);
    expect((await gql("{ version }", host, apiKey)).status).toBe(404);
    expect((await get("/", {}, host)).body.toString()).not.toContain("preview-2");
    expect(await title()).toBe("v2");
    const active = listed.find((d) => d.status === "active");
    expect((await t.api("DELETE", `/api/apps/shop/deployments/${active.id}`)).status).toBe(409);
  });

  it("holds an app to its number of previews", async () => {
    const small = await startTestPlatform({ maxPreviews: 1 });
    try {
      const created = await small.api("POST", "/api/apps", { name: "tiny" });
      const deployBranch = async (branch: string) =>
        fetch(`${small.platform.url}/api/apps/tiny/deployments`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${created.body.deployToken}`,
            "content-type": "application/gzip",
            "x-trellis-deploy-branch": branch,
          },
          body: new Uint8Array(
            await siteArchive(join(small.tmp, `b-${branch}-${builds++}`), { version: branch }),
          ),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
      expect((await deployBranch("one")).status).toBe(201);
      expect((await deployBranch("one")).status).toBe(201);
      const second = await deployBranch("two");
      expect(second.status).toBe(400);
      expect(second.body.error.message).toMatch(/already has 1 previews.*remove one/);
    } finally {
      await small.close();
    }
  });

  it("keeps an app without static files answering / as before", async () => {
    await t.deployedApp("plain");
    const res = await get("/", {}, "plain.localhost");
    const platformRoot = await get("/", {}, "127.0.0.1");
    expect(res.status).toBe(platformRoot.status);
    expect(res.body.equals(platformRoot.body)).toBe(true);
    expect(res.headers.etag).toBe(platformRoot.headers.etag);
  });
});

describe("static sites without fallback", () => {
  let t: TestPlatform;
  afterAll(() => t?.close());

  it("answers a plain 404 when the site has no 404.html and falls back to nothing", async () => {
    t = await startTestPlatform();
    const created = await t.api("POST", "/api/apps", { name: "docs" });
    const build = await siteArchive(join(t.tmp, "docs"), {
      version: "d1",
      manifest: webManifest({ spaFallback: false }),
      site: { "index.html": page("docs"), "guide/index.html": page("guide") },
      compress: false,
    });
    expect((await t.deploy("docs", build, created.body.deployToken)).status).toBe(201);
    const port = Number(new URL(t.platform.url).port);
    const deep = await send(port, "docs.localhost", "/orders/42");
    expect(deep.status).toBe(404);
    expect(deep.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect((await send(port, "docs.localhost", "/guide/")).body.toString()).toContain("<title>guide</title>");
    expect((await send(port, "docs.localhost", "/guide")).body.toString()).toContain("<title>guide</title>");
  });
});

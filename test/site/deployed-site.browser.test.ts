/**
 * Issue 15's acceptance for a deployed site, in a real browser (playwright-core + Debian's chromium) against
 * a real platform on loopback with the WebAssembly runtime: the template app from `trellis new`, as it is
 * (its `/graphql` takes API keys; its `/public/graphql` serves `sayHello` alone, to anyone), built by the
 * `trellis` bin and deployed with `trellis deploy`. The page loads from `{app_url}/` (redirected to
 * `site.localhost`, which chromium resolves to loopback), calls sayHello through `/public/graphql` without
 * a key and shows the answer, while `/graphql` still refuses a request without one; a deep link falls back to
 * index.html; the hashed script comes immutable and brotli-encoded; index.html revalidates with 304; a
 * second version (page and function changed) deployed as the preview of branch feature-x serves beside
 * production, then to production (by the deploy client); rollback restores the first page and function
 * together. Prints the first page load (navigation to the function's answer rendered).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { pino } from "pino";
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmAppRuntime, type RunningPlatform, startPlatform } from "../../platform/src/index.ts";
import { deployBuild } from "../../runtime/src/index.ts";
import { launchChromium } from "../support/chromium-browser.ts";

const run = promisify(execFile);
const TRELLIS = join(import.meta.dirname, "../../runtime/cli/bin/trellis.mjs");
const PG_URL = "postgres://postgres@127.0.0.1:5432/test";
const APP = "site";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
type Json = any;

/** The template's page and function as `trellis new` writes them, and the second version's edits. */
const V1 = { heading: "My Trellis app", answer: "Hello, Trellis!" };
const V2 = { heading: "Second version", answer: "Howdy, Trellis!" };

describe("trellis build → deploy → the site in a browser (public endpoint, caching, preview, rollback)", () => {
  let tmp: string;
  let platform: RunningPlatform;
  let browser: Browser;
  let deployToken: string;
  let siteUrl: string;
  let v1Dir: string;
  let v2Dir: string;
  /** Console errors and uncaught exceptions of every page (a CSP violation, a failed load). */
  const problems: string[] = [];
  const schema = `trellis_site_${randomBytes(5).toString("hex")}`;

  const trellis = (...args: string[]) =>
    run(process.execPath, [TRELLIS, ...args], { env: { ...process.env, CI: "1" } });
  const deploy = async (dir: string, branch?: string) => {
    const { stdout } = await trellis(
      "deploy",
      dir,
      "--url",
      platform.url,
      "--app",
      APP,
      "--token",
      deployToken,
      ...(branch ? ["--branch", branch] : []),
    );
    return stdout;
  };
  async function api(method: string, path: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(platform.url + path, {
      method,
      headers: { authorization: `Bearer ${platform.adminToken}` },
    });
    return { status: res.status, body: await res.json() };
  }

  /** A fresh context (empty cache), its page, and every response it saw. */
  async function freshPage(): Promise<{ context: BrowserContext; page: Page; responses: Response[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const responses: Response[] = [];
    page.on("response", (r) => responses.push(r));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`${page.url()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
    return { context, page, responses };
  }
  /** Closes a context whose pages logged no error. */
  const closeClean = async (context: BrowserContext) => {
    await context.close();
    expect(problems.splice(0)).toEqual([]);
  };
  const shows = async (page: Page, version: { heading: string; answer: string }) => {
    await page.waitForFunction(
      (text) => document.querySelector("#answer")?.textContent === text,
      version.answer,
    );
    expect(await page.textContent("h1")).toBe(version.heading);
    expect(await page.getAttribute("#answer", "class")).toBe("");
  };

  /** Replaces text the template is known to contain (a template change fails here, not later). */
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(file, "utf8");
    if (!text.includes(from)) throw new Error(`${file} no longer contains ${from}`);
    await writeFile(file, text.replace(from, to));
  };

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-site-browser-"));
    v1Dir = join(tmp, "site-v1");
    v2Dir = join(tmp, "site-v2");
    await trellis("new", APP, "--dir", v1Dir, "--no-vendor");
    // The second version: the page's heading and the function's answer changed.
    await cp(v1Dir, v2Dir, { recursive: true });
    await edit(join(v2Dir, "web/index.html"), `<h1>${V1.heading}</h1>`, `<h1>${V2.heading}</h1>`);
    await edit(join(v2Dir, "src/index.ts"), "`Hello, ", "`Howdy, ");
    // Each version built once, side by side (separate processes).
    await Promise.all([trellis("build", v1Dir), trellis("build", v2Dir)]);

    platform = await startPlatform({
      port: 0,
      host: "127.0.0.1",
      dataDir: join(tmp, "data"),
      adminToken: `admin-${randomBytes(16).toString("hex")}`,
      databaseUrl: PG_URL,
      databaseSchema: schema,
      graphdb: { httpPort: 0, grpcPort: 0 },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime(),
    });
    const created = await fetch(`${platform.url}/api/apps`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: APP }),
    });
    expect(created.status).toBe(201);
    deployToken = ((await created.json()) as Json).deployToken;
    siteUrl = `http://${APP}.localhost:${new URL(platform.url).port}`;
    await deploy(v1Dir);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("loads from {app_url}/, calls the public endpoint and shows the function's answer", async () => {
    const before = (await api("GET", `/api/apps/${APP}`)).body.app.status;
    const { context, page, responses } = await freshPage();
    const started = performance.now();
    await page.goto(`${platform.url}/apps/${APP}/`);
    await shows(page, V1);
    const ms = performance.now() - started;
    expect(page.url()).toBe(`${siteUrl}/`);
    const call = responses.find((r) => r.url() === `${siteUrl}/public/graphql`);
    expect(call?.status()).toBe(200);
    expect(call?.request().method()).toBe("POST");
    expect(await call?.request().headerValue("authorization")).toBeNull();
    expect(await call?.json()).toMatchObject({ data: { sayHello: V1.answer } });
    // The keyed endpoint still wants a key, and the public one serves nothing but sayHello.
    const post = (path: string, query: string) =>
      fetch(`${platform.url}/apps/${APP}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
    expect((await post("/graphql", '{ sayHello(name: "x") }')).status).toBe(401);
    const other = await (await post("/public/graphql", "{ quote { __typename } }")).json();
    expect(other.errors?.[0]?.message).toMatch(/^Cannot query field "quote" on type "Query"/);
    const callMs = call?.request().timing().responseEnd ?? Number.NaN;

    // The form calls the function again with the visitor's input.
    await page.fill("#name", "Browser");
    await page.click("button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#answer")?.textContent === "Hello, Browser!");
    await closeClean(context);

    // The same first visit (empty browser cache) once the app is running.
    const again = await freshPage();
    const warmStarted = performance.now();
    await again.page.goto(`${platform.url}/apps/${APP}/`);
    await shows(again.page, V1);
    const warmMs = performance.now() - warmStarted;
    await closeClean(again.context);
    process.stdout.write(
      `\nfirst page load of the deployed template site ({app_url}/ → the function's answer rendered, ` +
        `empty browser cache): ${ms.toFixed(0)} ms with the app ${before} (its /graphql call ${callMs.toFixed(0)} ms); ` +
        `${warmMs.toFixed(0)} ms with the app running\n`,
    );
  }, 30_000);

  it("falls back to index.html for a deep link, which renders and calls the function", async () => {
    const { context, page } = await freshPage();
    const res = await page.goto(`${siteUrl}/some/route?tab=2`);
    expect(res?.status()).toBe(200);
    expect(await res?.headerValue("content-type")).toBe("text/html; charset=utf-8");
    expect(await res?.headerValue("cache-control")).toBe("no-cache");
    await shows(page, V1);
    expect(await page.evaluate(() => location.pathname + location.search)).toBe("/some/route?tab=2");
    await closeClean(context);
  }, 30_000);

  it("serves the hashed script immutable and brotli-encoded, and revalidates index.html with 304", async () => {
    const { context, page, responses } = await freshPage();
    const first = await page.goto(`${siteUrl}/`);
    await shows(page, V1);
    const script = responses.find((r) => /\/assets\/index-[\w-]+\.js$/.test(r.url()));
    expect(script, responses.map((r) => r.url()).join("\n")).toBeDefined();
    expect(await script?.request().headerValue("accept-encoding")).toMatch(/\bbr\b/);
    expect(await script?.headerValue("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await script?.headerValue("content-encoding")).toBe("br");
    expect(await script?.headerValue("content-type")).toBe("text/javascript; charset=utf-8");
    const style = responses.find((r) => /\/assets\/index-[\w-]+\.css$/.test(r.url()));
    expect(await style?.headerValue("cache-control")).toBe("public, max-age=31536000, immutable");

    const etag = await first?.headerValue("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(await first?.headerValue("cache-control")).toBe("no-cache");
    // Chromium reports a revalidated page as its cached 200; the status on the wire is in CDP's extra info.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const wire: { url?: string; status: number }[] = [];
    const requestUrls = new Map<string, string>();
    cdp.on("Network.requestWillBeSent", (e) => requestUrls.set(e.requestId, e.request.url));
    cdp.on("Network.responseReceivedExtraInfo", (e) =>
      wire.push({ url: requestUrls.get(e.requestId), status: e.statusCode }),
    );
    const reloaded = await page.reload();
    expect(await reloaded?.request().headerValue("if-none-match")).toBe(etag);
    await shows(page, V1);
    expect(wire.find((w) => w.url === `${siteUrl}/`)?.status).toBe(304);
    await closeClean(context);
  }, 30_000);

  it("serves a preview of branch feature-x at its own URL, its page and functions beside production", async () => {
    const stdout = await deploy(v2Dir, "feature-x");
    const previewUrl = `http://${APP}--feature-x.localhost:${new URL(platform.url).port}`;
    expect(stdout).toContain(previewUrl);
    const { context, page } = await freshPage();
    await page.goto(`${previewUrl}/`);
    await shows(page, V2);
    await page.goto(`${siteUrl}/`);
    await shows(page, V1);
    await closeClean(context);
  }, 60_000);

  it("shows a second version's page and answer, and rollback restores the first's together", async () => {
    const deployments = (await api("GET", `/api/apps/${APP}/deployments`)).body.deployments as Json[];
    const v1 = deployments.find((d) => d.status === "active");
    // This time through the deploy client, as the GitHub Action deploys.
    const { deployment, siteUrl: pages } = await deployBuild({
      url: platform.url,
      app: APP,
      token: deployToken,
      buildDir: join(v2Dir, "build"),
    });
    expect(deployment.status).toBe("active");
    expect(pages).toBe(siteUrl);
    const { context, page } = await freshPage();
    await page.goto(`${siteUrl}/`);
    await shows(page, V2);

    const rolled = await api("POST", `/api/apps/${APP}/deployments/${v1.id}/rollback`);
    expect(rolled.status).toBe(200);
    await page.reload();
    await shows(page, V1);
    // The form's next call reaches the first version's function too.
    await page.fill("#name", "again");
    await page.click("button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#answer")?.textContent === "Hello, again!");
    await closeClean(context);
  }, 60_000);
});

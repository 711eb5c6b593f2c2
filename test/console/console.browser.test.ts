import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform } from "../../platform/src/index.ts";
import { launchChromium } from "../support/chromium-browser.ts";
import { buildConsole } from "./build-console.ts";
import { fixtureAppRuntime, fixtureBuildArchive } from "./fixture-app-runtime.ts";

const SCREENSHOTS = fileURLToPath(new URL("../../test-results/console/", import.meta.url));
const ADMIN_TOKEN = "console-test-admin-token-0123456789";
const APP = "shop";
const SECRET_VALUE = "sk-live-console-test-4242";
/** A front end as Vite writes it: a page, its module script (which renders into it) and its stylesheet. */
const SITE = {
  "index.html":
    '<!doctype html><html><head><title>Shop front</title><link rel="stylesheet" crossorigin href="/assets/index-5e6f7a8b.css">' +
    '<script type="module" crossorigin src="/assets/index-1a2b3c4d.js"></script></head>' +
    '<body><h1>Shop front</h1><p id="status">static</p></body></html>',
  "assets/index-1a2b3c4d.js": 'document.getElementById("status").textContent = "rendered by its script";\n',
  "assets/index-5e6f7a8b.css": "h1 { color: #1e8a4c; font-size: 4rem; }\n",
};

/** Drives the built console in Debian's chromium against the real platform (in-process). */
describe("console in a browser", () => {
  let tmp: string;
  let platform: { url: string; adminToken: string; close: () => Promise<void> };
  let browser: Browser;
  let page: Page;
  let apiKey = "";
  const consoleErrors: string[] = [];
  /** Content-Security-Policy violations, from the page's own events and chromium's console messages. */
  const cspViolations: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  /** Calls the deployed app through the gateway with the API key created in the console. */
  const callApp = async (query: string) => {
    const res = await fetch(`${platform.url}/apps/${APP}/graphql`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: unknown[] } };
  };

  /** Uploads a build with the admin token; a `branch` other than main makes it that branch's preview. */
  const deploy = async (archive: Promise<Buffer>, branch?: string) => {
    const res = await fetch(`${platform.url}/api/apps/${APP}/deployments`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${ADMIN_TOKEN}`,
        "Content-Type": "application/gzip",
        ...(branch ? { "X-Trellis-Deploy-Branch": branch } : {}),
      },
      body: new Uint8Array(await archive),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  /** The body of `GET /` on an app host (`shop.localhost`), asked of the platform on 127.0.0.1. */
  const siteAnswer = (host: string) =>
    new Promise<string>((resolve, reject) => {
      const port = new URL(platform.url).port;
      httpGet({ host: "127.0.0.1", port, path: "/", headers: { host: `${host}:${port}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(`${res.statusCode} ${Buffer.concat(chunks).toString()}`));
      }).on("error", reject);
    });

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-console-test-"));
    await mkdir(SCREENSHOTS, { recursive: true });
    const consoleDir = join(tmp, "console");
    // Launch the browser while Vite builds; both take a moment.
    [browser] = await Promise.all([launchChromium(), buildConsole(consoleDir)]);
    platform = await startPlatform({
      port: 0,
      dataDir: join(tmp, "data"),
      adminToken: ADMIN_TOKEN,
      consoleDir,
      graphdb: { httpPort: 0, grpcPort: 0 },
      runtime: fixtureAppRuntime(),
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    page.setDefaultTimeout(10_000);
    page.on("pageerror", (err) => consoleErrors.push(err.message));
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) cspViolations.push(message.text());
    });
    await page.exposeFunction("reportCspViolation", (violation: string) => cspViolations.push(violation));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => {
        (window as unknown as { reportCspViolation(v: string): void }).reportCspViolation(
          `${e.violatedDirective} blocked ${e.blockedURI}`,
        );
      });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("is served with its security headers", async () => {
    const response = await page.goto(platform.url);
    const headers = response?.headers() ?? {};
    expect(headers["content-security-policy"]).toContain("script-src 'self';style-src 'self'");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("no-referrer");
  });

  it("rejects a wrong admin token and signs in with the right one", async () => {
    await page.goto(platform.url);
    const token = page.getByLabel("Admin token");
    await token.fill("not-the-token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not valid");
    await token.fill(platform.adminToken);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Apps", level: 1 }).waitFor();
    await page.getByText("No apps yet").waitFor();
    await shot("01-apps-empty");
  });

  it("creates an app and shows its deploy token once, which deploys a build", async () => {
    await page.getByLabel("App name").fill(APP);
    await page.getByRole("button", { name: "Create app" }).click();
    const secretBox = page.getByRole("region", { name: `Deploy token for ${APP}` });
    await secretBox.waitFor();
    const deployToken = (await secretBox.locator("pre").textContent())?.trim() ?? "";
    expect(deployToken.length).toBeGreaterThan(16);
    await expect.poll(() => page.getByRole("link", { name: APP, exact: true }).count()).toBe(1);
    await shot("02-app-created");

    const res = await fetch(`${platform.url}/api/apps/${APP}/deployments`, {
      method: "POST",
      headers: { Authorization: `Bearer ${deployToken}`, "Content-Type": "application/gzip" },
      body: new Uint8Array(await fixtureBuildArchive()),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("shows the endpoint, a curl example with a real function and the deploy command", async () => {
    await page.getByRole("link", { name: `Open ${APP} →` }).click();
    await page.getByRole("heading", { name: APP, level: 1 }).waitFor();
    const res = await fetch(`${platform.url}/api/apps/${APP}`, {
      headers: { Authorization: `Bearer ${platform.adminToken}` },
    });
    const { app } = (await res.json()) as { app: { url: string } };
    const panel = page.getByRole("tabpanel");
    // The operation the platform made from the deployed schema, its argument filled.
    await expect.poll(() => panel.textContent()).toContain('{"query":"{ sayHello(name: \\"Trellis\\") }"}');
    const text = (await panel.textContent()) ?? "";
    expect(text).toContain(`curl -X POST ${app.url}`);
    expect(text).toContain("Authorization: Bearer <API_KEY>");
    expect(text).toContain(`trellis deploy --url ${new URL(platform.url).origin} --app ${APP}`);
    await shot("03-overview");
  });

  it("moves between tabs with the arrow keys", async () => {
    await page.getByRole("tab", { name: "Overview" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect
      .poll(() => page.getByRole("tab", { name: "Environment Variables" }).getAttribute("aria-selected"))
      .toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Environment Variables");
    expect(page.url()).toContain(`#/apps/${APP}/env`);
  });

  it("sets an env var and shows it masked, never in clear", async () => {
    await page.getByText("No environment variables yet").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("TRELLIS_OPENAI_API_KEY");
    await page.getByLabel("Value", { exact: true }).fill(SECRET_VALUE);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved TRELLIS_OPENAI_API_KEY.").waitFor();
    const row = page.getByRole("row").filter({ hasText: "TRELLIS_OPENAI_API_KEY" });
    await expect.poll(() => row.textContent()).toContain("••••••42");
    expect(await page.getByLabel("Value", { exact: true }).inputValue()).toBe("");
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    expect(html).not.toContain(SECRET_VALUE);
    await shot("04-env-masked");
  });

  it("creates an API key and shows its secret once", async () => {
    await page.getByRole("tab", { name: "API Keys" }).click();
    await page.getByText("No API keys yet").waitFor();
    await page.getByLabel("Key name").fill("browser-test");
    await page.getByRole("button", { name: "Create key" }).click();
    const secretBox = page.getByRole("region", { name: "API key browser-test" });
    await secretBox.waitFor();
    apiKey = (await secretBox.locator("pre").textContent())?.trim() ?? "";
    expect(apiKey).toMatch(/^trk_/);
    await expect.poll(() => page.getByRole("row").filter({ hasText: "browser-test" }).count()).toBe(1);
    await shot("05-api-key");
  });

  it("lists executions in Activity, expands logs and picks up new calls by itself", async () => {
    expect((await callApp('{ sayHello(name: "Ada") }')).body.data).toEqual({ sayHello: "Hello, Ada!" });
    expect((await callApp("{ failHard }")).body.errors).toHaveLength(1);
    await page.getByRole("tab", { name: "Activity" }).click();
    const rows = page.locator("tr.execution");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain("failHard");
    expect(await rows.nth(1).textContent()).toContain("sayHello");
    expect(await rows.nth(0).getByRole("img", { name: "error" }).count()).toBe(1);

    await rows
      .nth(0)
      .getByRole("button", { name: /failHard/ })
      .click();
    await page.getByText("Error: the upstream API answered 503").waitFor();

    await page.getByLabel("Status").selectOption("success");
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByLabel("Status").selectOption("");
    await expect.poll(() => rows.count()).toBe(2);

    // A call made while the tab is open appears without touching the page (auto-refresh every 5 s).
    await callApp('{ sayHello(name: "Grace") }');
    await expect.poll(() => rows.count(), { timeout: 8000, interval: 250 }).toBe(3);
    await shot("06-activity");
  });

  it("runs a DQL query, shows the schema and asks before dropping data", async () => {
    await page.getByRole("tab", { name: "Graph" }).click();
    await page.getByRole("table", { name: "Predicates" }).getByText("dgraph.type").waitFor();
    await page.getByRole("textbox", { name: "DQL query" }).fill("{ q(func: has(dgraph.type)) { uid } }");
    await page.getByRole("button", { name: "Run query" }).click();
    const result = page.getByRole("region", { name: "Query result" });
    await expect.poll(() => result.textContent()).toContain('"q"');
    await shot("07-graph");

    await page.getByRole("button", { name: "Drop all data…" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const warning = (await dialog.textContent()) ?? "";
    expect(warning).toContain("This cannot be undone.");
    expect(warning).toContain("Export your data first (DQL query or /export) if you may need it.");
    await shot("08-drop-confirm");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });

    await page.getByRole("button", { name: "Drop all data…" }).click();
    await dialog.getByRole("button", { name: "Drop all data" }).click();
    await page.getByText("All data was dropped.").waitFor();
    expect(consoleErrors).toEqual([]);
  });

  it("applies a GraphQL schema, showing a refused one's errors at their lines", async () => {
    const editor = page.getByRole("textbox", { name: "GraphQL schema (SDL)" });
    await editor.fill(
      "type Person {\n  id: ID!\n  score: Float @id\n  name: String! @search(by: [term])\n  age: Int\n}\n",
    );
    await page.getByRole("button", { name: "Apply schema" }).click();
    const problems = page.getByRole("list", { name: "Schema problems" });
    await expect
      .poll(() => problems.textContent())
      .toContain("line 3: Type Person; Field score: with @id directive must be of type String, Int or Int64");
    expect(await page.getByRole("alert").filter({ hasText: "Schema refused" }).textContent()).toContain(
      "the previous one keeps serving",
    );
    const gutter = page.getByTestId("gql-schema-gutter");
    expect(await gutter.locator(".marked").count()).toBe(1);
    expect(await gutter.locator(".marked").getAttribute("data-line")).toBe("3");
    await shot("09-graphql-schema-error");

    await editor.fill("type Person {\n  id: ID!\n  name: String! @search(by: [term])\n  age: Int\n}\n");
    await page.getByRole("button", { name: "Apply schema" }).click();
    await page.getByText("Schema applied.").waitFor();
    expect(await problems.count()).toBe(0);
    expect(await gutter.locator(".marked").count()).toBe(0);

    const generated = page.locator("details.generated");
    expect(await generated.locator("pre").isVisible()).toBe(false);
    await generated.getByText("Generated schema").click();
    await expect.poll(() => generated.locator("pre").isVisible()).toBe(true);
    expect(await generated.locator("pre").textContent()).toContain("queryPerson(filter: PersonFilter");
    await shot("10-graphql-schema-applied");
  });

  it("explores the GraphQL API: docs, autocomplete, Ctrl+Enter and the history", async () => {
    const docs = page.getByRole("region", { name: "Docs" });
    await expect
      .poll(() => docs.getByRole("list", { name: "Query fields" }).textContent())
      .toContain("queryPerson(");
    expect(await docs.getByRole("list", { name: "Mutation fields" }).textContent()).toContain(
      "addPerson(input: [AddPersonInput!]!): AddPersonPayload",
    );

    const query = page.getByRole("textbox", { name: "GraphQL query", exact: true });
    await query.fill(
      'mutation { addPerson(input: [{ name: "Ada Lovelace", age: 36 }]) { person { name } } }',
    );
    await page.getByRole("button", { name: "Run GraphQL" }).click();
    const result = page.getByRole("region", { name: "GraphQL result" });
    await expect.poll(() => result.textContent()).toContain('"name": "Ada Lovelace"');

    // Type a partial root field, take the suggestion with Tab; then a partial sub-field, with Enter.
    await query.fill("");
    await query.focus();
    await page.keyboard.type("{ quer");
    const suggestions = page.getByRole("listbox", { name: "Suggestions" });
    await expect
      .poll(() => suggestions.getByRole("option").allTextContents())
      .toContain("queryPerson[Person]");
    await page
      .getByRole("region", { name: "GraphQL explorer" })
      .screenshot({ path: join(SCREENSHOTS, "11-graphql-autocomplete.png") });
    await page.keyboard.press("Tab");
    expect(await query.inputValue()).toBe("{ queryPerson");
    expect(await suggestions.count()).toBe(0);
    await page.keyboard.type(" { na");
    await suggestions.getByRole("option", { name: /^name/ }).waitFor();
    await page.keyboard.press("Enter");
    await page.keyboard.type(" age } }");
    expect(await query.inputValue()).toBe("{ queryPerson { name age } }");

    await page.keyboard.press("Control+Enter");
    await expect.poll(() => result.textContent()).toContain('"queryPerson": [');
    expect(JSON.parse((await result.textContent()) ?? "")).toEqual({
      data: { queryPerson: [{ name: "Ada Lovelace", age: 36 }] },
    });

    const history = page.getByRole("list", { name: "Recent operations" });
    const entries = history.getByRole("listitem");
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.nth(0).textContent()).toContain("{ queryPerson { name age } }");
    expect(await entries.nth(1).textContent()).toContain("mutation { addPerson(");
    await shot("12-graphql-explorer");

    // The export downloads Dgraph's files of the app's graph, with the person just added.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download export (RDF)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${APP}-dgraph\\.r\\d+\\.u[\\d.]+\\.tar\\.gz$`));
    const saved = join(SCREENSHOTS, "export.tar.gz");
    await download.saveAs(saved);
    const listed: string[] = [];
    await tar.list({ file: saved, onReadEntry: (entry) => listed.push(entry.path) });
    expect(
      listed
        .map((p) => p.split("/").pop())
        .filter(Boolean)
        .sort(),
    ).toEqual(["g01.gql_schema.gz", "g01.rdf.gz", "g01.schema.gz"]);
    await page.getByText(/^Downloaded .*\.tar\.gz\.$/).waitFor();

    await entries.nth(1).getByRole("button").click();
    expect(await query.inputValue()).toContain("mutation { addPerson(");
    // The history survives a reload (localStorage).
    await page.reload();
    await page.getByRole("tab", { name: "Graph" }).click();
    await expect
      .poll(() => page.getByRole("list", { name: "Recent operations" }).getByRole("listitem").count())
      .toBe(2);
    expect(consoleErrors).toEqual([]);
  });

  it("shows federation, the _service SDL and which functions serve the lambda fields", async () => {
    // trellis.json maps two lambda fields: one to a function the build exports, one to a missing one.
    const lambdas = { "Person.greeting": "sayHello", "Person.rank": "computeRank" };
    const res = await fetch(`${platform.url}/api/apps/${APP}/deployments`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/gzip" },
      body: new Uint8Array(await fixtureBuildArchive(undefined, { lambdas })),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const panel = page.getByRole("region", { name: "Federation" });
    await panel.getByRole("button", { name: "Reload federation" }).click();
    await expect.poll(() => panel.textContent()).toContain('Add @key(fields: "id") to a type');

    await page
      .getByRole("textbox", { name: "GraphQL schema (SDL)" })
      .fill(
        'type Person @key(fields: "id") {\n  id: ID!\n  name: String! @search(by: [term])\n  age: Int\n  greeting: String @lambda\n}\n',
      );
    await page.getByRole("button", { name: "Apply schema" }).click();
    await page.getByText("Schema applied.").waitFor();
    await expect.poll(() => panel.locator("p > .tag").textContent()).toBe("on");
    await panel.getByText("_service SDL", { exact: true }).click();
    const sdl = panel.locator("details.generated pre");
    await expect.poll(() => sdl.textContent()).toContain('type Person @key(fields: "id")');
    expect(await sdl.textContent()).not.toContain("_entities");
    const rows = panel.getByRole("table", { name: "Lambda fields" }).getByRole("row");
    expect(await rows.allTextContents()).toEqual([
      "FieldFunctionDeclared inState",
      "Person.greetingsayHelloschema, trellis.jsonserved",
      'Person.rankcomputeRanktrellis.jsonnot in schemathe active deployment has no function "computeRank"; the GraphQL schema has no @lambda field Person.rank',
    ]);
    await panel.screenshot({ path: join(SCREENSHOTS, "13-graph-federation.png") });
    expect(consoleErrors).toEqual([]);
  });

  it("shows the site's URL and live thumbnail, and what each deployment holds", async () => {
    const res = await deploy(fixtureBuildArchive(undefined, undefined, SITE));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await page.getByRole("tab", { name: "Overview" }).click();
    await page.reload();
    const siteUrl = `http://${APP}.localhost:${new URL(platform.url).port}`;
    const panel = page.getByRole("tabpanel");
    await panel.getByRole("link", { name: siteUrl }).waitFor();
    expect(
      await panel.getByRole("link", { name: `Open ${APP}'s site in a new tab` }).getAttribute("href"),
    ).toBe(siteUrl);
    const frame = panel.locator(".site-thumbnail iframe");
    expect(await frame.getAttribute("src")).toBe(siteUrl);
    expect(await frame.getAttribute("sandbox")).toBe("allow-scripts");
    expect(await frame.getAttribute("loading")).toBe("lazy");
    expect(await frame.evaluate((el) => getComputedStyle(el).pointerEvents)).toBe("none");
    // The site answers, and renders in the thumbnail with its module script (in the sandbox's opaque origin).
    expect(await siteAnswer(`${APP}.localhost`)).toContain("<title>Shop front</title>");
    await panel.frameLocator(".site-thumbnail iframe").getByText("rendered by its script").waitFor();
    await shot("14-overview-site");

    await page.getByRole("tab", { name: "Deployments" }).click();
    const production = page.getByRole("table", { name: "Production deployments, newest first" });
    const live = production.getByRole("row").filter({ hasText: "active" });
    const bytes = Object.values(SITE).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    await expect.poll(() => live.textContent()).toContain(`Pages3 files, ${bytes} bytes`);
    expect(await live.textContent()).toContain("Functions2: sayHello, failHard");
    // The deployment before it has functions only.
    expect(await production.getByRole("row").nth(2).textContent()).toContain("Pagesnone");
  });

  it("lists a branch's preview at its own URL and removes it", async () => {
    const previewSite = { "index.html": "<!doctype html><title>Shop preview</title><h1>feature-x</h1>" };
    const res = await deploy(fixtureBuildArchive(["sayHello"], undefined, previewSite), "feature-x");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const previewHost = `${APP}--feature-x.localhost`;
    const previewUrl = `http://${previewHost}:${new URL(platform.url).port}`;
    expect(await siteAnswer(previewHost)).toContain("<title>Shop preview</title>");
    await page.reload();
    const previews = page.getByRole("table", { name: "Preview deployments, one per branch, newest first" });
    const row = previews.getByRole("row").filter({ hasText: "feature-x" });
    await row.getByRole("link", { name: previewUrl }).waitFor();
    expect(await row.textContent()).toContain("preview");
    expect(await row.textContent()).toContain("Functions1: sayHello");
    expect(await row.textContent()).toContain("1 file,");
    await shot("15-deployments-preview");

    await row.getByRole("button", { name: "Remove preview feature-x" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`${previewUrl} stops answering`);
    await dialog.getByRole("button", { name: "Remove preview" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByText("No previews.").waitFor();
    expect(await previews.count()).toBe(0);
    expect(await siteAnswer(previewHost)).not.toContain("Shop preview");
    await shot("16-deployments-preview-removed");
    expect(consoleErrors).toEqual([]);
  });

  it("asks before rolling production back or rotating the deploy token, saying what each breaks", async () => {
    const live = async () => {
      const res = await fetch(`${platform.url}/api/apps/${APP}`, {
        headers: { Authorization: `Bearer ${platform.adminToken}` },
      });
      return ((await res.json()) as { app: { activeDeploymentId: string } }).app.activeDeploymentId;
    };
    const before = await live();
    await page.getByRole("tab", { name: "Deployments" }).click();
    const production = page.getByRole("table", { name: "Production deployments, newest first" });
    const rollBack = production.getByRole("button", { name: "Roll back to this…" }).first();
    await rollBack.click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("The app's URL switches at once");
    // Cancel changes nothing.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await live()).toBe(before);
    await rollBack.click();
    await dialog.getByRole("button", { name: "Roll back", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(live).not.toBe(before);

    await page.getByRole("tab", { name: "Overview" }).click();
    const rotate = page.getByRole("button", { name: "Rotate deploy token…" });
    await rotate.click();
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("The current token stops working at once");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.getByRole("region", { name: "New deploy token" }).count()).toBe(0);
    await rotate.click();
    await dialog.getByRole("button", { name: "Rotate deploy token", exact: true }).click();
    await page.getByRole("region", { name: "New deploy token" }).waitFor();
    expect(consoleErrors).toEqual([]);
  });

  it("returns to sign-in with a message when the admin token stops working", async () => {
    await page.evaluate(() => sessionStorage.setItem("trellis.adminToken", "revoked-token"));
    await page.reload();
    await page.getByText("Your session is no longer valid").waitFor();
    expect(await page.getByLabel("Admin token").isVisible()).toBe(true);
  });

  it("ran every step above under its Content-Security-Policy without a violation, and the CSP is enforced", async () => {
    expect(cspViolations).toEqual([]);
    const ran = await page.evaluate(async () => {
      const script = document.createElement("script");
      script.textContent = "window.injectedScriptRan = true";
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 100));
      return (window as unknown as { injectedScriptRan?: boolean }).injectedScriptRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => cspViolations.some((v) => v.startsWith("script-src"))).toBe(true);
  });
});

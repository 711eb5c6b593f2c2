/**
 * Issue 15's acceptance for `trellis dev`, in a real browser (playwright-core + Debian's chromium), through
 * the real `trellis` bin: `trellis new` → `trellis dev` → the template page loads from the dev server's
 * port, calls the app's sayHello function and shows its answer; editing the page hot-reloads it (Vite's
 * websocket on the same port) without a function rebuild; editing the function rebuilds it and the page's
 * next call shows the new answer. Prints the first page load (navigation to the answer rendered).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium-browser.ts";
import { freePort } from "../support/loopback-apis.ts";

const BIN = join(import.meta.dirname, "../../runtime/cli/bin/trellis.mjs");
const run = promisify(execFile);

describe("trellis new → dev → the page in a browser (hot reload, function edits)", () => {
  let dir: string;
  let dev: ChildProcess | undefined;
  let output = "";
  let url: string;
  let browser: Browser;
  let page: Page;

  const waitForOutput = async (text: string, from: number, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!output.slice(from).includes(text)) {
      if (Date.now() > deadline || dev?.exitCode !== null) {
        throw new Error(`trellis dev never printed "${text}":\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    const parent = await mkdtemp(join(tmpdir(), "trellis-web-e2e-"));
    dir = join(parent, "web-app");
    await run(process.execPath, [BIN, "new", "web-app", "--dir", dir, "--no-vendor"]);
    // The template's connections need their secrets to load (the page calls none of them).
    await writeFile(
      join(dir, ".env.dev.local"),
      'TRELLIS_QUOTES_API_KEY="k"\nTRELLIS_DB_DATABASE_URL="postgres://127.0.0.1:1/none"\nTRELLIS_OPENAI_API_KEY="k"\n',
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    dev = spawn(process.execPath, [BIN, "dev", dir, "--port", String(port), "--no-graphdb"], {
      env: { ...process.env, CI: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    dev.stdout?.on("data", (d) => {
      output += stripVTControlCharacters(String(d));
    });
    dev.stderr?.on("data", (d) => {
      output += stripVTControlCharacters(String(d));
    });
    await waitForOutput("Your local endpoint is ready", 0, 120_000);
    browser = await launchChromium();
    page = await browser.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (dev && dev.exitCode === null) {
      dev.kill("SIGINT");
      await new Promise((r) => dev?.once("exit", r));
    }
    if (dir) await rm(join(dir, ".."), { recursive: true, force: true });
  });

  it("loads the page, which calls the function and shows its answer", async () => {
    const started = performance.now();
    await page.goto(`${url}/`);
    await page.waitForFunction(() => document.querySelector("#answer")?.textContent === "Hello, Trellis!");
    const ms = performance.now() - started;
    process.stdout.write(`\nfirst page load of the template site under trellis dev: ${ms.toFixed(0)} ms\n`);
    await page.fill("#name", "Browser");
    await page.click("button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#answer")?.textContent === "Hello, Browser!");
  }, 60_000);

  it("hot-reloads an edited page without rebuilding the functions", async () => {
    const builds = output.split("Building").length;
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "kept until a full reload";
    });
    const style = join(dir, "web/src/style.css");
    await writeFile(style, `${await readFile(style, "utf8")}\nh1 { color: rgb(1, 2, 3); }\n`);
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector("h1") as Element).color === "rgb(1, 2, 3)",
      undefined,
      { timeout: 15_000 },
    );
    // CSS updates in place: the same document, no reload.
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe(
      "kept until a full reload",
    );
    const html = join(dir, "web/index.html");
    await writeFile(
      html,
      (await readFile(html, "utf8")).replace("<h1>My Trellis app</h1>", "<h1>Edited</h1>"),
    );
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "Edited", undefined, {
      timeout: 15_000,
    });
    expect(output.split("Building").length).toBe(builds);
  }, 60_000);

  it("answers the page's next call with the edited function", async () => {
    const from = output.length;
    const source = join(dir, "src/index.ts");
    await writeFile(source, (await readFile(source, "utf8")).replace("`Hello, ", "`Howdy, "));
    await waitForOutput("✔ Loading", from);
    await page.fill("#name", "Browser"); // the index.html edit above reloaded the page
    await page.click("button[type=submit]");
    await page.waitForFunction(
      () => document.querySelector("#answer")?.textContent?.startsWith("Howdy, "),
      undefined,
      {
        timeout: 15_000,
      },
    );
    expect(await page.textContent("#answer")).toBe("Howdy, Browser!");
  }, 90_000);
});

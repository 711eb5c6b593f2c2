import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../../test/support/chromium-browser.ts";
import { type DevServer, startDevServer } from "../../src/dev/dev-server.ts";
import { createGraphQLHandler } from "../../src/graphql/graphql-handler.ts";
import { newTestInvoker, testWorld } from "../graphql/app-functions.ts";

/** Drives the explorer in Debian's chromium (a missing browser fails with the fix; `.ci/run` installs it). */
describe("API explorer in a browser", () => {
  let dev: DevServer;
  let browser: Browser;

  beforeAll(async () => {
    const handler = createGraphQLHandler({ world: testWorld, invoker: newTestInvoker() });
    dev = await startDevServer({
      port: 0,
      getApp: () => ({
        name: "people-app",
        world: testWorld,
        sdl: handler.sdl,
        graphql: { fetch: (request, auth) => handler.fetch(request, auth) },
        endpoints: [{ name: "main", path: "/graphql", auth: "bearer-token" }],
        testConnections: async () => [
          {
            name: "db",
            type: "postgresql",
            reachable: true,
            authenticated: false,
            detail: "password rejected",
            ms: 3,
          },
        ],
      }),
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await dev?.close();
  });

  it("lists functions by root type, runs one with its arguments and shows result, logs and execution id", async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(`${dev.url}/`);
    expect(await page.title()).toBe("Trellis API Explorer");
    await expect
      .poll(() => page.locator("#group-Mutation + ul button").allTextContents())
      .toEqual(["add", "addPerson", "deleteEverything"]);

    await page.getByRole("button", { name: "person", exact: true }).click();
    await page.getByLabel("id Int64!").fill("9007199254740993");
    await page.getByRole("button", { name: "Run" }).click();
    await expect
      .poll(() => page.locator("#run-meta").textContent())
      .toMatch(/HTTP 200 .* executionId [0-9a-v]{20}/);
    const result = JSON.parse((await page.locator("#result").textContent())!);
    expect(result.data.person).toMatchObject({ id: "9007199254740993", firstName: "Ada" });

    await page.getByRole("button", { name: "logStuff" }).click();
    await page.getByLabel("name String!").fill("Zed");
    await page.getByLabel(/Operation/).press("Control+Enter");
    await expect
      .poll(() => page.locator("#logs li").allTextContents())
      .toEqual(["[info] hello Zed", "[warning] careful", "[error] something odd happened"]);
    expect(await page.getByLabel("Bearer token").isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it("tests connections and shows reachability and authentication", async () => {
    const page = await browser.newPage();
    await page.goto(`${dev.url}/explorer/`);
    await page.getByRole("button", { name: "Test connections" }).click();
    await expect
      .poll(() => page.locator("#connections-body td").allTextContents())
      .toEqual(["db", "postgresql", "yes", "no", "password rejected", "3 ms"]);
  });
});

/**
 * The README's ten-line walkthrough, read from the README (so it cannot drift) and run in bash, against a
 * local registry that holds no @trellis package (everything else proxied): a new app beside the clone,
 * `npm install` (the app carries its Trellis packages in .trellis/), `trellis dev` answering, the platform
 * started by `npm start`, a deploy token and an API key from its API, `trellis build` and `trellis deploy`,
 * and the deployed function answering the last line's curl with the key; its page, in chromium, shows the
 * answer of the public endpoint it calls. Then, on the app it made: what it
 * carries and how it installed, `tsc --noEmit`, a type error failing the build; and a Go app whose tests
 * and build fetch no module (the Go SDK it carries, named by a replace line).
 *
 * What the test changes (test/support/readme-walkthrough.ts): the clone is this checkout, already installed
 * (the first line's `npm install` is the suite's own); the app and the platform's data go to a temporary
 * folder; every server gets a free port; `npx trellis dev`, which runs until Ctrl-C, is started in the
 * background, asked for sayHello, and stopped. bench/walkthrough.ts times the same from a fresh clone.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium-browser.ts";
import { freePort } from "../support/loopback-apis.ts";
import { walkthroughLines, walkthroughScript } from "../support/readme-walkthrough.ts";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";

const ROOT = join(import.meta.dirname, "../..");
const CACHE = join(ROOT, "node_modules/.cache/trellis-packages-test");
const TIMEOUT = 6 * 60_000;

describe("the README's walkthrough, line by line", () => {
  let registry: LocalRegistry;
  let work: string;
  let script: string;
  let child: ChildProcess | undefined;
  let output = "";
  let code: number | null = null;
  let lines: string[];
  let platformPort = 0;

  beforeAll(async () => {
    registry = await startLocalRegistry(CACHE);
    work = await mkdtemp(join(tmpdir(), "trellis-walkthrough-"));
    lines = await walkthroughLines(ROOT);
    const [platform, graphHttp, graphGrpc, dev, devGraphHttp, devGraphGrpc] = await Promise.all(
      Array.from({ length: 6 }, freePort),
    );
    const ports = { platform, graphHttp, graphGrpc, dev, devGraphHttp, devGraphGrpc };
    platformPort = platform;
    script = walkthroughScript(lines, { ports, inPlace: { work } });
    child = spawn("bash", ["-c", script], {
      cwd: ROOT,
      detached: true,
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([k]) => !/^npm_/i.test(k) && k !== "INIT_CWD" && !k.startsWith("VITEST"),
          ),
        ),
        ...registry.npmEnv,
        CI: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => {
      output += d;
    });
    child.stderr?.on("data", (d) => {
      output += d;
    });
    code = await new Promise<number | null>((resolve) => child?.once("exit", resolve));
  }, TIMEOUT);

  const app = () => join(work, "my-app");
  const env = () => ({ ...registry.npmEnv });

  afterAll(async () => {
    // The platform `npm start` left in the background is in the script's process group.
    if (child?.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 1000));
    await registry?.close();
    if (work) await rm(work, { recursive: true, force: true });
  }, 30_000);

  it("is ten lines or so, each a command", () => {
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines.some((l) => l.includes("npx trellis deploy"))).toBe(true);
  });

  it("runs to the end", () => {
    expect(code, `the walkthrough failed:\n${output.slice(-6000)}`).toBe(0);
  });

  it("answers in trellis dev, then deployed, with the API key", () => {
    const text = stripVTControlCharacters(output);
    expect(text).toMatch(/DEV ANSWER: \{"data":\{"sayHello":"Hello, dev!"\}/);
    expect(text).toMatch(/DEV GRAPH: \{"data":\{"people":\[\{"name":"Ada"\}\]\}/);
    expect(text, text.slice(-3000)).toMatch(/Site: +http:\/\/my-app\.localhost:\d+/);
    expect(text).toMatch(/\{"data":\{"sayHello":"Hello, you!"\}/);
  });

  it("shows the deployed page, calling its public endpoint, with the answer, also as the console's thumbnail", async () => {
    const site = /Site: +(http:\/\/my-app\.localhost:\d+)/.exec(stripVTControlCharacters(output))?.[1];
    expect(site).toBeDefined();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${site}/`);
      await page.waitForFunction(
        () => document.querySelector("#answer")?.textContent === "Hello, Trellis!",
        null,
        {
          timeout: 15_000,
        },
      );
      expect(await page.getAttribute("#answer", "class")).toBe("");
      // And in the console, the app's thumbnail (a sandboxed frame: an opaque origin, which the public
      // endpoint answers) shows the working page.
      const adminToken = (await readFile(join(work, "data/platform/admin-token"), "utf8")).trim();
      const consolePage = await browser.newPage();
      await consolePage.goto(`http://127.0.0.1:${platformPort}/#/apps/my-app`);
      await consolePage.evaluate((token) => sessionStorage.setItem("trellis.adminToken", token), adminToken);
      await consolePage.reload();
      await consolePage
        .frameLocator(".site-thumbnail iframe")
        .getByText("Hello, Trellis!")
        .waitFor({ timeout: 15_000 });
    } finally {
      await browser.close();
    }
  }, 30_000);

  it("carries the packages it installed from, which the registry does not have, without install-script warnings", async () => {
    expect((await readdir(join(app(), ".trellis/packages"))).sort()).toEqual([
      "trellis-cli-0.1.0.tgz",
      "trellis-graphdb-0.1.0.tgz",
      "trellis-runtime-0.1.0.tgz",
      "trellis-sdk-0.1.0.tgz",
    ]);
    const pkg = JSON.parse(await readFile(join(app(), "package.json"), "utf8"));
    expect(pkg.devDependencies["@trellis/cli"]).toBe("file:.trellis/packages/trellis-cli-0.1.0.tgz");
    expect(pkg.overrides["@trellis/runtime"]).toBe("file:.trellis/packages/trellis-runtime-0.1.0.tgz");
    for (const name of ["@trellis/cli", "@trellis/runtime", "@trellis/graphdb", "@trellis/sdk"]) {
      expect((await fetch(`${registry.url}${name.replace("/", "%2f")}`)).status).toBe(404);
    }
    expect(stripVTControlCharacters(output)).not.toMatch(/install-scripts/);
    // Committed with the app, so that its CI installs the same way.
    const ignored = await run(
      "git",
      ["check-ignore", "-q", ".trellis/packages/trellis-cli-0.1.0.tgz"],
      app(),
    );
    expect(ignored.code).not.toBe(0);
  });

  it("type-checks, and a TypeScript error fails its build, naming it", async () => {
    await must("npx", ["tsc", "--noEmit"], app(), env());
    const source = join(app(), "src/index.ts");
    await writeFile(
      source,
      `${await readFile(source, "utf8")}\nexport function broken(): number {\n  return "no";\n}\n`,
    );
    const failed = await run("npx", ["trellis", "build"], app(), env());
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/1 TypeScript error/);
    expect(failed.output).toMatch(/src\/index\.ts:\d+:\d+: TS2322/);
  });

  it("makes a Go app whose tests and build fetch no module, served by trellis dev and deployed", {
    timeout: 240_000,
  }, async () => {
    const goApp = join(work, "my-go");
    await must(process.execPath, [BIN, "new", "my-go", "--lang", "go"], work);
    const mod = await readFile(join(goApp, "go.mod"), "utf8");
    expect(mod).toMatch(
      /^replace github\.com\/trellis-dev\/trellis\/runtime\/sdk\/go => \.\/\.trellis\/sdk-go$/m,
    );
    const offline = { ...env(), GOPROXY: "off", GOFLAGS: "-mod=mod", TRELLIS_GO_COMPILER: "go" };
    expect(await must("go", ["test", "./..."], goApp, offline)).toMatch(/^ok\s/m);
    // Its own CLI, installed from what it carries.
    await must("npm", ["install", "--no-audit", "--no-fund"], goApp, offline);

    // Served by its trellis dev on free ports: sayHello answers, and its graph connection reaches the dev
    // server's database.
    const [dev, devHttp, devGrpc] = await Promise.all([freePort(), freePort(), freePort()]);
    const devServer = spawn(
      "npx",
      [
        "trellis",
        "dev",
        "--port",
        `${dev}`,
        "--graphdb-port",
        `${devHttp}`,
        "--graphdb-grpc-port",
        `${devGrpc}`,
      ],
      {
        cwd: goApp,
        env: { ...process.env, ...offline, CI: "1" },
        detached: true,
        stdio: "ignore",
      },
    );
    try {
      const gql = async (query: string) => {
        for (let i = 0; i < 120; i++) {
          const res = await fetch(`http://127.0.0.1:${dev}/graphql`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query }),
          }).catch(() => undefined);
          if (res?.ok) return (await res.json()) as { data?: Record<string, unknown> };
          await new Promise((r) => setTimeout(r, 500));
        }
        throw new Error("the Go app's trellis dev never answered");
      };
      expect((await gql('{ sayHello(name: "go") }')).data).toEqual({ sayHello: "Hello, go!" });
      await gql('mutation { addPerson(name: "Grace") }');
      expect((await gql("{ people { name } }")).data).toEqual({ people: [{ name: "Grace" }] });
    } finally {
      process.kill(-(devServer.pid as number), "SIGTERM");
    }

    // Built with the CLI it carries (after `trellis dev`, as in the walkthrough: dev writes build/ without
    // the front end's production build, which deploy then asks for).
    expect(await must("npx", ["trellis", "build"], goApp, offline)).toMatch(/compiled with Go/);
    expect(existsSync(join(goApp, "build/app.wasm"))).toBe(true);

    // Deployed to the walkthrough's platform with its own deploy token, answering with an API key.
    const url = `http://localhost:${platformPort}`;
    const admin = {
      authorization: `Bearer ${(await readFile(join(work, "data/platform/admin-token"), "utf8")).trim()}`,
    };
    const api = async (path: string, body: unknown) =>
      (await fetch(`${url}${path}`, {
        method: "POST",
        headers: { ...admin, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json())) as Record<string, string>;
    const { deployToken } = await api("/api/apps", { name: "my-go" });
    await must(
      "npx",
      ["trellis", "deploy", "--url", url, "--app", "my-go", "--token", deployToken as string],
      goApp,
      offline,
    );
    const { secret } = await api("/api/apps/my-go/keys", {});
    const res = await fetch(`${url}/apps/my-go/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ query: '{ sayHello(name: "deployed go") }' }),
    });
    expect(await res.json()).toMatchObject({ data: { sayHello: "Hello, deployed go!" } });
  });
});

const BIN = join(ROOT, "runtime/cli/bin/trellis.mjs");

interface Run {
  code: number;
  output: string;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^npm_/i.test(k) || k === "INIT_CWD" || k.startsWith("VITEST")) continue;
    base[k] = v;
  }
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...base, CI: "1", ...env }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

async function must(
  command: string,
  args: string[],
  cwd: string,
  env?: Record<string, string>,
): Promise<string> {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0)
    throw new Error(`\`${command} ${args.join(" ")}\` failed (${result.code}):\n${result.output}`);
  return result.output;
}

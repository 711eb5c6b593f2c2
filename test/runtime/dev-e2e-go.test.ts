/**
 * Issue acceptance for Go, end to end through the real `trellis` bin and the local Go: `trellis new --lang
 * go` → `go test` (the template's unit tests, on the SDK's fake host) → `trellis build` → `trellis dev`;
 * GraphQL calls the template's functions, one per connection kind, against real servers: a loopback HTTP
 * API (the bearer header filled from .env.dev.local), PostgreSQL and MariaDB, the graph database
 * `trellis dev` embeds (over gRPC) and a loopback OpenAI-compatible model; a loop, a huge allocation and a
 * panic fail alone; then the same build deployed to a platform answers with an API key. The app is made
 * as it will be once the SDK is published (`--no-vendor`): the SDK module comes through a Go module proxy
 * (on disk), so the scaffolded go.mod is used exactly as written. (test/packages/readme-walkthrough.test.ts covers the
 * default, the SDK carried in the app.)
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmAppRuntime, type RunningPlatform, startPlatform } from "../../platform/src/index.ts";
import { type GoModuleProxy, startGoModuleProxy } from "../support/go-module-proxy.ts";
import { freePort, type LoopbackApis, startLoopbackApis } from "../support/loopback-apis.ts";
import { itServesTheTemplateApi, type TemplateGraphQLBody } from "../support/template-api-tests.ts";

const BIN = join(import.meta.dirname, "../../runtime/cli/bin/trellis.mjs");
const run = promisify(execFile);
const API_KEY = `key-${Date.now()}`;

describe("trellis new --lang go → go test → build → dev → deploy (every connection kind)", () => {
  let parent: string;
  let dir: string;
  let proxy: GoModuleProxy;
  let env: NodeJS.ProcessEnv;
  let dev: ChildProcess | undefined;
  let devOutput = "";
  let built = "";
  let goTest = "";
  let url: string;
  let apis: LoopbackApis;
  const table = `trellis_go_e2e_${process.pid}`;

  beforeAll(async () => {
    apis = await startLoopbackApis();
    const { quotesPort, openaiPort } = apis;
    const grpcPort = await freePort();
    const httpPort = await freePort();
    const devPort = await freePort();

    proxy = await startGoModuleProxy();
    env = { ...process.env, ...proxy.env, CI: "1", TRELLIS_GO_COMPILER: "go" };
    parent = await mkdtemp(join(tmpdir(), "trellis-go-e2e-"));
    dir = join(parent, "hello-go");
    await run(process.execPath, [BIN, "new", "hello-go", "--lang", "go", "--dir", dir, "--no-vendor"], {
      env,
    });
    // The developer fetches the module's dependencies and runs the template's tests as scaffolded.
    await run("go", ["mod", "tidy"], { cwd: dir, env });
    goTest = (
      await run("go", ["test", "-v", "./..."], { cwd: dir, env }).catch((e) => {
        throw new Error(`go test failed:\n${e.stdout}\n${e.stderr}`);
      })
    ).stdout;

    // The developer points the connections at their services and adds a MariaDB one.
    const manifest = JSON.parse(await readFile(join(dir, "trellis.json"), "utf8"));
    manifest.connections.quotes.baseUrl = `http://127.0.0.1:${quotesPort}/`;
    manifest.connections.openai.baseUrl = `http://127.0.0.1:${openaiPort}/`;
    manifest.connections.graph.grpcTarget = `localhost:${grpcPort}`;
    manifest.connections.maria = { type: "relationaldb", connStr: "{{DATABASE_URL}}" };
    manifest.limits = { timeoutMs: 3000, memoryMb: 64 };
    await writeFile(join(dir, "trellis.json"), JSON.stringify(manifest, null, 2));
    const source = await readFile(join(dir, "main.go"), "utf8");
    await writeFile(
      join(dir, "main.go"),
      source.replace("https://api.example.com/quotes/random", `http://127.0.0.1:${quotesPort}/quotes/random`),
    );
    await writeFile(
      join(dir, "extra.go"),
      `package main

import (
	"github.com/trellis-dev/trellis/runtime/sdk/go/http"
	"github.com/trellis-dev/trellis/runtime/sdk/go/sql"
)

// AddNote writes to MariaDB through the maria connection and counts the notes.
func AddNote(text string) (int, error) {
	if _, err := sql.Execute("maria", "create table if not exists ${table} (id int auto_increment primary key, text varchar(200))"); err != nil {
		return 0, err
	}
	if _, err := sql.Execute("maria", "insert into ${table} (text) values (?)", text); err != nil {
		return 0, err
	}
	rows, err := sql.QueryAs[struct{ N int \`json:"n"\` }]("maria", "select count(*) as n from ${table}")
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	return rows[0].N, nil
}

// Misbehaving functions: each must fail alone, cleanly.
func Spin() int32 {
	i := int32(0)
	for {
		i++
	}
}

var kept [][]byte

func Hog() int32 {
	for {
		kept = append(kept, make([]byte, 1<<20))
	}
}

func Crash() string {
	var m map[string]int
	m["boom"] = 1
	return "unreachable"
}

func FetchUndeclared() (string, error) {
	res, err := http.Get("http://example.invalid/steal")
	if err != nil {
		return "", err
	}
	return res.Body, nil
}
`,
    );
    await writeFile(
      join(dir, ".env.dev.local"),
      [
        `TRELLIS_QUOTES_API_KEY="${API_KEY}"`,
        `TRELLIS_OPENAI_API_KEY="${API_KEY}"`,
        'TRELLIS_DB_DATABASE_URL="postgres://postgres@127.0.0.1:5432/test"',
        'TRELLIS_MARIA_DATABASE_URL="mysql://root@127.0.0.1:3306/test"',
        "",
      ].join("\n"),
    );

    built = (await run(process.execPath, [BIN, "build", dir], { env })).stdout;
    dev = spawn(
      process.execPath,
      [
        BIN,
        "dev",
        dir,
        "--port",
        String(devPort),
        "--no-build",
        "--no-watch",
        "--graphdb-port",
        String(httpPort),
        "--graphdb-grpc-port",
        String(grpcPort),
      ],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    dev.stdout?.on("data", (d) => {
      devOutput += d;
    });
    dev.stderr?.on("data", (d) => {
      devOutput += d;
    });
    url = `http://127.0.0.1:${devPort}`;
    const deadline = Date.now() + 45_000;
    while (!devOutput.includes("Your local endpoint is ready")) {
      if (Date.now() > deadline || dev.exitCode !== null)
        throw new Error(`trellis dev did not start:\n${devOutput}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 240_000);

  afterAll(async () => {
    if (dev && dev.exitCode === null) {
      dev.kill("SIGINT");
      await new Promise((r) => dev?.once("exit", r));
    }
    apis?.close();
    await run("mariadb", ["-h", "127.0.0.1", "-uroot", "test", "-e", `drop table if exists ${table}`]).catch(
      () => {},
    );
    if (parent) await rm(parent, { recursive: true, force: true });
    await proxy?.close();
  });

  async function gql(query: string): Promise<TemplateGraphQLBody> {
    const res = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as TemplateGraphQLBody;
  }

  it("builds with the local Go, names the compiler and resolves the SDK through the module proxy", async () => {
    expect(built).toMatch(/compiled with Go 1\.\d+/);
    expect(built).toContain("Query.sayHello");
    expect(built).toContain("Mutation.addPerson");
    const goSum = await readFile(join(dir, "go.sum"), "utf8");
    expect(goSum).toContain("github.com/trellis-dev/trellis/runtime/sdk/go v0.1.0 h1:");
    expect(await readFile(join(dir, "go.mod"), "utf8")).not.toMatch(/^replace /m);
  });

  it("runs the template's unit tests with `go test` on the SDK's fake host", () => {
    expect(goTest).toMatch(/--- PASS: TestGetQuote/);
    expect(goTest).toMatch(/--- PASS: TestAddPerson/);
    expect(goTest).toMatch(/^ok\s/m);
  });

  itServesTheTemplateApi(() => ({ gql, apis, apiKey: API_KEY }));

  it("fails an infinite loop, a huge allocation, a panic and an undeclared fetch alone", async () => {
    const started = Date.now();
    const [loop, hog, crash, hello] = await Promise.all([
      gql("{ spin }"),
      gql("{ hog }"),
      gql("{ crash }"),
      gql('{ sayHello(name: "during") }'),
    ]);
    expect(loop).toMatchObject({
      data: { spin: null },
      errors: [{ path: ["spin"], extensions: { code: "TIMEOUT" } }],
    });
    expect(hog).toMatchObject({ data: { hog: null }, errors: [{ extensions: { code: "OUT_OF_MEMORY" } }] });
    expect(crash).toMatchObject({
      data: { crash: null },
      errors: [
        {
          message: "the function crashed: panic: assignment to entry in nil map",
          extensions: { code: "TRAP" },
        },
      ],
    });
    expect(hello.data).toEqual({ sayHello: "Hello, during!" });
    expect(Date.now() - started).toBeLessThan(15_000);
    const stolen = await gql("{ fetchUndeclared }");
    expect(stolen.data).toEqual({ fetchUndeclared: null });
    expect(stolen.errors?.[0]?.message).toContain(
      "no http connection in trellis.json allows http://example.invalid/steal",
    );
    expect((await gql('{ sayHello(name: "after") }')).data).toEqual({ sayHello: "Hello, after!" });
  });

  it("deploys the Go build to a platform, where it answers with an API key", async () => {
    const platform: RunningPlatform = await startPlatform({
      port: 0,
      host: "127.0.0.1",
      dataDir: join(parent, "platform"),
      adminToken: `admin-${randomBytes(16).toString("hex")}`,
      graphdb: { httpPort: 0, grpcPort: 0 },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime(),
    });
    try {
      const api = async (method: string, path: string, payload?: unknown) => {
        const res = await fetch(platform.url + path, {
          method,
          headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/json" },
          body: payload === undefined ? undefined : JSON.stringify(payload),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const created = await api("POST", "/api/apps", { name: "hello-go" });
      expect(created.status).toBe(201);
      const deployed = await run(
        process.execPath,
        [
          BIN,
          "deploy",
          dir,
          "--url",
          platform.url,
          "--app",
          "hello-go",
          "--token",
          created.body.deployToken as string,
        ],
        { env },
      );
      expect(deployed.stdout).toContain("/apps/hello-go/graphql");
      const key = (await api("POST", "/api/apps/hello-go/keys", { name: "e2e" })).body.secret as string;
      const call = (query: string, bearer?: string) =>
        fetch(`${platform.url}/apps/hello-go/graphql`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          },
          body: JSON.stringify({ query }),
        });
      expect((await call('{ sayHello(name: "platform") }')).status).toBe(401);
      const answer = await call('{ sayHello(name: "platform") }', key);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ data: { sayHello: "Hello, platform!" } });
    } finally {
      await platform.close();
    }
  });
});

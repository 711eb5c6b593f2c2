/**
 * Issue acceptance, end to end through the real `trellis` bin: `trellis new` (TypeScript) → `trellis build`
 * → `trellis dev` on a free port; GraphQL queries and mutations call the functions, one per connection kind,
 * against real servers: a loopback HTTP API (asserting the bearer header filled from .env.dev.local),
 * PostgreSQL and MariaDB, the graph database `trellis dev` embeds (over gRPC), and a loopback
 * OpenAI-compatible server through `models`.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type LoopbackApis, startLoopbackApis } from "../support/loopback-apis.ts";
import { itServesTheTemplateApi, type TemplateGraphQLBody } from "../support/template-api-tests.ts";

const BIN = join(import.meta.dirname, "../../runtime/cli/bin/trellis.mjs");
const run = promisify(execFile);
const API_KEY = `key-${Date.now()}`;

describe("trellis new → build → dev (TypeScript app, every connection kind)", () => {
  let dir: string;
  let dev: ChildProcess | undefined;
  let devOutput = "";
  let url: string;
  let apis: LoopbackApis;
  const table = `trellis_e2e_${process.pid}`;

  beforeAll(async () => {
    apis = await startLoopbackApis();
    const { quotesPort, openaiPort } = apis;
    const grpcPort = await freePort();
    const httpPort = await freePort();
    const devPort = await freePort();

    const parent = await mkdtemp(join(tmpdir(), "trellis-e2e-"));
    dir = join(parent, "hello-app");
    await run(process.execPath, [BIN, "new", "hello-app", "--dir", dir, "--no-vendor"]);

    // The developer points the connections at their services and adds a MariaDB one.
    const manifest = JSON.parse(await readFile(join(dir, "trellis.json"), "utf8"));
    manifest.connections.quotes.baseUrl = `http://127.0.0.1:${quotesPort}/`;
    manifest.connections.openai.baseUrl = `http://127.0.0.1:${openaiPort}/`;
    manifest.connections.graph.grpcTarget = `localhost:${grpcPort}`;
    manifest.connections.maria = { type: "relationaldb", connStr: "{{DATABASE_URL}}" };
    manifest.limits = { timeoutMs: 3000, memoryMb: 64 };
    await writeFile(join(dir, "trellis.json"), JSON.stringify(manifest, null, 2));
    const source = await readFile(join(dir, "src/index.ts"), "utf8");
    await writeFile(
      join(dir, "src/index.ts"),
      source.replace(
        "https://api.example.com/quotes/random",
        `http://127.0.0.1:${quotesPort}/quotes/random`,
      ) +
        `
/** MariaDB through the \`maria\` connection. */
export function addNote(text: string): i32 {
  sql.execute("maria", "create table if not exists ${table} (id int auto_increment primary key, text varchar(200))");
  sql.execute("maria", "insert into ${table} (text) values (?)", [text]);
  const rows = sql.query<{ n: number }>("maria", "select count(*) as n from ${table}");
  return rows[0]?.n ?? 0;
}

/** Misbehaving functions: each must fail alone, cleanly. */
export function spin(): i32 {
  let i = 0;
  for (;;) i = (i + 1) | 0;
}
export function hog(): i32 {
  const chunks: string[] = [];
  for (;;) chunks.push("x".repeat(1 << 20) + chunks.length);
}
export function fetchUndeclared(): string {
  return http.fetch("http://example.invalid/steal").text();
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

    const built = await run(process.execPath, [BIN, "build", dir], { env: { ...process.env, CI: "1" } });
    expect(built.stdout).toContain("Query.sayHello");

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
      { env: { ...process.env, CI: "1" }, stdio: ["ignore", "pipe", "pipe"] },
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
  }, 120_000);

  afterAll(async () => {
    if (dev && dev.exitCode === null) {
      dev.kill("SIGINT");
      await new Promise((r) => dev?.once("exit", r));
    }
    apis?.close();
    await run("mariadb", ["-h", "127.0.0.1", "-uroot", "test", "-e", `drop table if exists ${table}`]).catch(
      () => {},
    );
    if (dir) await rm(join(dir, ".."), { recursive: true, force: true });
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

  itServesTheTemplateApi(() => ({ gql, apis, apiKey: API_KEY }));

  it("turns an infinite loop, a runaway allocation and an undeclared fetch into errors of that call only", async () => {
    const started = Date.now();
    const [loop, hello] = await Promise.all([gql("{ spin }"), gql('{ sayHello(name: "during") }')]);
    expect(loop.data).toEqual({ spin: null });
    expect(loop.errors?.[0]).toMatchObject({ path: ["spin"], extensions: { code: "TIMEOUT" } });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(hello.data).toEqual({ sayHello: "Hello, during!" });

    const hog = await gql("{ hog }");
    expect(hog.data).toEqual({ hog: null });
    expect(["OUT_OF_MEMORY", "TRAP", "FUNCTION_ERROR"]).toContain(
      (hog.errors?.[0] as { extensions?: { code?: string } } | undefined)?.extensions?.code,
    );

    const stolen = await gql("{ fetchUndeclared }");
    expect(stolen.data).toEqual({ fetchUndeclared: null });
    expect(stolen.errors?.[0].message).toContain(
      "no http connection in trellis.json allows http://example.invalid/steal",
    );

    // The server keeps answering.
    expect((await gql('{ sayHello(name: "after") }')).data).toEqual({ sayHello: "Hello, after!" });
  });

  it("serves the explorer, /health and /metrics", async () => {
    const explorer = await fetch(`${url}/explorer/`);
    expect(explorer.status).toBe(200);
    expect(await explorer.text()).toContain("Trellis API Explorer");
    const health = (await (await fetch(`${url}/health`)).json()) as { status: string };
    expect(health.status).toBe("ok");
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/trellis_function_executions_total\{function="sayHello",status="success"\} \d+/);
    const { connections: conns } = (await (await fetch(`${url}/explorer/api/connections`)).json()) as {
      connections: { name: string; reachable: boolean }[];
    };
    expect(conns.find((c) => c.name === "db")?.reachable).toBe(true);
    expect(conns.find((c) => c.name === "graph")?.reachable).toBe(true);
  });
});

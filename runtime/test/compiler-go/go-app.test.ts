/**
 * A Go app compiled for real with the local Go (GOOS=wasip1, made a component with the preview1
 * adapter) and served by the runtime as it serves any app (loadApp: worker pool, host dispatcher,
 * GraphQL): every shape of value crosses the canonical ABI both ways, every host import works, and a
 * loop, a huge allocation and a panic each fail alone.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyGoApp } from "../../../test/support/go-app.ts";
import { type LoadedApp, loadApp } from "../../src/app/load-app.ts";
import { type BuildSummary, buildApp } from "../../src/compiler/build-app.ts";
import type { RequestAuth } from "../../src/graphql/graphql-handler.ts";
import type { GraphQLBody } from "../graphql/graphql-response.ts";

const FIXTURE = join(import.meta.dirname, "../fixtures/go-apps/kitchen-sink");

describe("a Go app built with Go and served by the runtime", () => {
  let dir: string;
  let summary: BuildSummary;
  let app: LoadedApp;
  let api: Server;
  const seen: { method?: string; url?: string; headers: Record<string, unknown>; body: string }[] = [];

  async function gql(
    query: string,
    variables?: Record<string, unknown>,
    auth?: RequestAuth,
  ): Promise<GraphQLBody> {
    const res = await app.fetch(
      new Request("http://app/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      }),
      auth,
    );
    return (await res.json()) as GraphQLBody;
  }

  beforeAll(async () => {
    api = createServer(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.setHeader("x-reply", `${req.method} ${req.headers["x-one"]}${req.headers["x-two"]}`);
      res.statusCode = req.url?.startsWith("/v1/") ? 200 : 201;
      res.end(
        req.url?.startsWith("/v1/") ? JSON.stringify({ model: JSON.parse(body).model }) : `hello ${req.url}`,
      );
    });
    await new Promise<void>((r) => api.listen(0, "127.0.0.1", () => r()));
    const port = (api.address() as AddressInfo).port;

    dir = await mkdtemp(join(tmpdir(), "trellis-go-app-"));
    await copyGoApp(FIXTURE, dir);
    const manifest = join(dir, "trellis.json");
    await writeFile(manifest, (await readFile(manifest, "utf8")).replace("65535", String(port)));
    summary = await buildApp(dir, {});
    app = await loadApp(join(dir, "build"), {
      env: { TRELLIS_APP_TOKEN: "s3cret" },
      workers: 2,
      maxResultBytes: 2 * 1024 * 1024,
      maxLogBytes: 10_000,
      // The test API is on loopback: open exactly it.
      egress: { allow: [`127.0.0.1:${port}`] },
    });
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await new Promise((r) => api?.close(r));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("says which compiler built it, and takes names, types and docs from the Go source", async () => {
    expect(summary.compiler).toMatch(/^Go 1\.\d+/);
    const info = JSON.parse(await readFile(join(dir, "build", "build-info.json"), "utf8"));
    expect(info.compiler).toBe(summary.compiler);
    const sdl = app.sdl;
    expect(sdl).toContain('"""MakeTeam builds a team from its parts."""');
    expect(sdl).toContain(
      "makeTeam(name: String!, lead: PersonInput, members: [PersonInput!]!, matrix: [[Int!]!]!, founded: Timestamp!, bytes: [Int!]!): Team",
    );
    // json tags rename (full_name → fullName) and `json:"-"` / unexported fields stay out.
    expect(sdl).toMatch(/type Person \{\n {2}fullName: String!\n {2}age: Int\n {2}tags: \[String!\]!\n\}/);
    expect(sdl).toContain('"""I is single precision."""');
    expect(sdl).toContain("scalar Timestamp");
    expect(summary.fields).toEqual(
      expect.arrayContaining(["Query.crash", "Query.echoNumbers", "Query.makeTeam"]),
    );
  });

  it("round-trips strings and every numeric kind at its limits", async () => {
    const r = await gql(
      `query($s: String!) { echo(s: $s)
        echoNumbers(a: -128, b: -32768, c: -2147483648, d: "-9223372036854775807", e: 254, f: 65534,
                    g: 4294967294, h: "18446744073709551614", i: 0.5, j: 1e300, k: true, l: 2147483646, m: 4294967294) {
          a b c d e f g h i j k l m } }`,
      { s: "héllo ✓ \u0000 𝄞" },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      echo: "héllo ✓ \u0000 𝄞",
      echoNumbers: {
        a: -127,
        b: -32767,
        c: -2147483647,
        d: "-9223372036854775806",
        e: 255,
        f: 65535,
        g: 4294967295,
        h: "18446744073709551615",
        i: 1.5,
        j: 1e300 + 1,
        k: false,
        l: 2147483647,
        m: 4294967295,
      },
    });
  });

  it("passes more than 16 flat parameters through memory", async () => {
    const r = await gql(`{ join(a: "a", b: "bb", c: "c", d: "dd", e: "", f: "f", g: "g", h: "h", i: "ii") }`);
    expect(r.data).toEqual({ join: "a|bb|c|dd||f|g|h|ii" });
  });

  it("lifts and lowers nested structs, pointers, slices, [][]int32, []byte and time.Time", async () => {
    const query = `query($lead: PersonInput, $members: [PersonInput!]!, $at: Timestamp!) {
      makeTeam(name: "core", lead: $lead, members: $members, matrix: [[1, -2], [], [3]], founded: $at, bytes: [0, 255, 7]) {
        name lead { fullName age tags } members { fullName age tags } scores matrix founded bytes } }`;
    const r = await gql(query, {
      lead: { fullName: "Ada", age: 36, tags: ["x"] },
      members: [
        { fullName: "Bob", age: null, tags: ["a", "b"] },
        { fullName: "Cy", tags: [] },
      ],
      at: "2023-11-14T22:13:20.999999999+01:00",
    });
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      makeTeam: {
        name: "core",
        lead: { fullName: "Ada", age: 36, tags: ["x"] },
        members: [
          { fullName: "Bob", age: null, tags: ["a", "b"] },
          { fullName: "Cy", age: null, tags: [] },
        ],
        scores: [2.5, 0.5],
        matrix: [[1, -2], [], [3]],
        // +1 ns in Go, shown in UTC.
        founded: "2023-11-14T21:13:21Z",
        bytes: [0, 255, 7],
      },
    });
    const none = await gql(
      `{ makeTeam(name: "none", members: [], matrix: [], founded: "0001-01-01T00:00:00Z", bytes: []) { name } }`,
    );
    expect(none).toEqual({ data: { makeTeam: null }, extensions: expect.anything() });
  });

  it("turns a returned error into a GraphQL error and a result that does not fit Int into one too", async () => {
    const r = await gql(
      `{ makeTeam(name: "", members: [], matrix: [], founded: "2024-01-01T00:00:00Z", bytes: []) { name } }`,
    );
    expect(r.data).toEqual({ makeTeam: null });
    expect(r.errors?.[0]).toMatchObject({ message: "a team needs a name", path: ["makeTeam"] });
    const fail = await gql(`{ fail(message: "boom ✗") }`);
    expect(fail.errors?.[0]?.message).toBe("boom ✗");
    const big = await gql("{ big }");
    expect(big.errors?.[0]?.message).toBe(
      "Big returned a value GraphQL cannot carry: 1099511627776 does not fit in a 32-bit Int (use int64 for larger values)",
    );
  });

  it("calls the host: HTTP with headers and body, a model, app secrets and logs", async () => {
    seen.length = 0;
    const r = await gql(
      `query($url: String!) { callHost(url: $url, body: "payload") { status statusText body header model secret missing } }`,
      { url: `http://127.0.0.1:${(api.address() as AddressInfo).port}/things?x=1` },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data?.callHost).toEqual({
      status: 201,
      statusText: "Created",
      body: "hello /things?x=1",
      header: "POST 12",
      model: '{"model":"echo-1"}',
      secret: "s3cret",
      missing: expect.stringContaining("MISSING"),
    });
    expect(seen[0]).toMatchObject({ method: "POST", body: "payload" });
    const logs = Object.values(r.extensions?.invocations ?? {})[0]?.logs ?? [];
    expect(logs).toContainEqual(
      expect.objectContaining({ level: "info", message: expect.stringMatching(/^called the host for http/) }),
    );
    const outside = await gql(`{ callHost(url: "http://example.com/") { status } }`);
    expect(outside.errors?.[0]?.message).toMatch(/^fetch: .*example\.com/);
  });

  it("answers auth.GetJWTClaims with the verified claims of the call, each call its own", async () => {
    const [alice, bob, none] = await Promise.all([
      gql("{ whoAmI }", undefined, { jwtClaims: { sub: "alice", exp: 1 } }),
      gql("{ whoAmI }", undefined, { jwtClaims: { sub: "bob" } }),
      gql("{ whoAmI }"),
    ]);
    expect([alice.data, bob.data, none.data]).toEqual([
      { whoAmI: "alice" },
      { whoAmI: "bob" },
      { whoAmI: "anonymous" },
    ]);
  });

  it("generates glue that also type-checks under TinyGo's build tags (its runtime exports cabi_realloc)", async () => {
    // TinyGo is not installed here; `go vet` with its tags checks the same sources TinyGo compiles.
    const env = { ...process.env, GOOS: "wasip1", GOARCH: "wasm" };
    await promisify(execFile)("go", ["vet", "-tags", "tinygo,wasip2", "."], { cwd: dir, env });
    const glue = await readFile(join(dir, "trellis_exports_gen.go"), "utf8");
    expect(glue).toMatch(/^\/\/go:build wasip1 \|\| wasip2$/m);
    expect(glue).toContain("//go:wasmexport make-team");
    expect(glue).toContain("//go:wasmexport cabi_post_make-team");
  });

  it("captures what Go writes to stdout and stderr as the call's log lines", async () => {
    const r = await gql('{ print(message: "hi ✓") }');
    expect(r.data).toEqual({ print: "hi ✓" });
    const logs = Object.values(r.extensions?.invocations ?? {})[0]?.logs ?? [];
    expect(logs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: "info", message: "out: hi ✓" }),
        expect.objectContaining({ level: "warning", message: "err: hi ✓" }),
      ]),
    );
  });

  it("refuses a result over the per-call size limit and keeps only the per-call log budget", async () => {
    const huge = await gql("{ huge(mb: 8) }");
    expect(huge.data).toEqual({ huge: null });
    expect(huge.errors?.[0]).toMatchObject({
      message: "huge returned about 8.0 MB, more than the 2.0 MB a call may return",
      extensions: { code: "RESOURCE_EXHAUSTED" },
    });
    expect((await gql("{ huge(mb: 1) }")).data?.huge).toHaveLength(1 << 20);
    const chatter = await gql("{ chatter(n: 5000) }");
    expect(chatter.data).toEqual({ chatter: 5000 });
    const logs = Object.values(chatter.extensions?.invocations ?? {})[0]?.logs ?? [];
    const kept = logs.slice(0, -1).reduce((n, l) => n + l.message.length, 0);
    expect(kept).toBeLessThanOrEqual(10_000);
    expect(logs.at(-1)).toMatchObject({
      level: "warning",
      message: expect.stringMatching(
        /^\d+ more log lines \(\d+ characters\) were dropped: the limit is 10000 characters per call$/,
      ),
    });
  });

  it("runs goroutines and sleeps on the clock", async () => {
    const r = await gql("{ fanout(n: 100) nap(ms: 50) }");
    expect(r.errors).toBeUndefined();
    expect(r.data?.fanout).toBe(5050);
    expect(r.data?.nap).toBeGreaterThanOrEqual(50);
    expect(r.data?.nap).toBeLessThan(1000);
  });

  it("fails a loop, a huge allocation and a panic alone, with TIMEOUT, OUT_OF_MEMORY and TRAP", async () => {
    const started = Date.now();
    const [spin, hoard, crash, echo] = await Promise.all([
      gql("{ spin }"),
      gql("{ hoard(mb: 512) }"),
      gql(`{ crash(message: "it broke") }`),
      gql(`{ echo(s: "still here") }`),
    ]);
    expect(spin.errors?.[0]?.extensions?.code).toBe("TIMEOUT");
    expect(hoard.errors?.[0]?.extensions?.code).toBe("OUT_OF_MEMORY");
    expect(hoard.errors?.[0]?.message).toMatch(/64 MB memory limit.*out of memory/);
    expect(crash.errors?.[0]?.extensions?.code).toBe("TRAP");
    expect(crash.errors?.[0]?.message).toBe("the function crashed: panic: it broke");
    expect(echo.data).toEqual({ echo: "still here" });
    expect(Date.now() - started).toBeLessThan(20_000);
    // The replaced instances answer again.
    expect((await gql("{ count(n: 1000) }")).data).toEqual({ count: 500500 });
    expect((await gql("{ hoard(mb: 4) }")).data).toEqual({ hoard: 4 });
  });
});

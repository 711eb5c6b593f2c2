/**
 * The per-query flags of `trellis-graphdb` (`--query-timeout`, `--limit-query-edge`,
 * `--limit-normalize-node`, `--limit-response-size`): defaults, parsing, refusals, and that a server
 * started with them enforces them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { parseCliArgs, startServer, USAGE } from "../../src/cli.ts";
import { post } from "./http-client.ts";

describe("query limit flags", () => {
  it("default to 60 s and Dgraph's limits, with a 128 MiB response", () => {
    expect(parseCliArgs([], {})).toMatchObject({
      queryTimeoutMs: 60_000,
      queryLimits: { queryEdges: 1_000_000, normalizeNodes: 10_000, responseBytes: 128 * 2 ** 20 },
    });
  });

  it("parse Go durations, counts and sizes", () => {
    const config = parseCliArgs(
      [
        "--query-timeout",
        "1m30s",
        "--limit-query-edge",
        "5000",
        "--limit-normalize-node=20",
        "--limit-response-size",
        "64MiB",
      ],
      {},
    );
    expect(config).toMatchObject({
      queryTimeoutMs: 90_000,
      queryLimits: { queryEdges: 5000, normalizeNodes: 20, responseBytes: 64 * 2 ** 20 },
    });
    expect(parseCliArgs(["--query-timeout", "0"], {}).queryTimeoutMs).toBe(0);
    expect(parseCliArgs(["--query-timeout", "250ms"], {}).queryTimeoutMs).toBe(250);
  });

  it("refuse bad values, saying how to write them", () => {
    expect(() => parseCliArgs(["--query-timeout", "30"], {})).toThrow(
      '--query-timeout: time: missing unit in duration "30" (write it as 30s, 500ms, 2m; 0 for none)',
    );
    expect(() => parseCliArgs(["--query-timeout=-1s"], {})).toThrow(
      "--query-timeout: must not be negative: -1s",
    );
    expect(() => parseCliArgs(["--limit-query-edge", "0"], {})).toThrow(
      "--limit-query-edge: not a positive whole number: 0",
    );
    expect(() => parseCliArgs(["--limit-normalize-node", "many"], {})).toThrow(
      "--limit-normalize-node: not a positive whole number: many",
    );
    expect(() => parseCliArgs(["--limit-response-size", "lots"], {})).toThrow(
      "--limit-response-size: not a size: lots (write it as 64MiB)",
    );
    expect(() => parseCliArgs(["--limit-response-size", "1GiB"], {})).toThrow(
      "--limit-response-size: 1GiB is more than a JavaScript string can hold; at most 512MiB",
    );
  });

  it("are in the usage text", () => {
    for (const flag of [
      "--query-timeout",
      "--limit-query-edge",
      "--limit-normalize-node",
      "--limit-response-size",
    ]) {
      expect(USAGE).toContain(flag);
    }
  });

  it("are enforced by a server started with them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trellis-limit-flags-"));
    const config = parseCliArgs(
      [
        "--data",
        dir,
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--grpc-port",
        "0",
        "--limit-query-edge",
        "10",
        "--limit-response-size",
        "512",
      ],
      {},
    );
    const running = await startServer(config, pino({ level: "silent" }));
    try {
      const base = `http://127.0.0.1:${running.port}`;
      const ask = async (contentType: string, path: string, body: string) =>
        (await post(base, path, contentType, body)).json() as {
          data: unknown;
          errors?: { message: string }[];
        };
      await ask("application/rdf", "/alter", "name: string .\nnext: [uid] .");
      const nquads = Array.from(
        { length: 20 },
        (_, i) => `_:n${i} <next> _:n${(i + 1) % 20} .\n_:n${i} <name> "n${i}" .`,
      );
      const mutated = await ask(
        "application/rdf",
        "/mutate?commitNow=true",
        `{ set { ${nquads.join("\n")} } }`,
      );
      expect(mutated.errors).toBeUndefined();
      const walk = await ask(
        "application/dql",
        "/query",
        "{ q(func: has(name)) @recurse(depth: 30) { next } }",
      );
      expect(walk.errors?.[0].message).toMatch(/^: Exceeded query edge limit = 10\. Found \d+ edges\./);
      const all = await ask("application/dql", "/query", "{ q(func: has(name)) { name next { name } } }");
      expect(all.errors?.[0].message).toMatch(
        /^while running ToJson: estimated response size: \d+ is bigger than threshold: 512\./,
      );
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

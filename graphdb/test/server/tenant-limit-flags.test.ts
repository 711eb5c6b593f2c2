/**
 * The `trellis-graphdb` flags bounding one namespace's heavy work (issue 20): defaults, parsing, refusals,
 * and that a server started with them enforces them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { parseCliArgs, startServer, USAGE } from "../../src/cli.ts";
import { TENANT_LIMIT_OPTIONS } from "../../src/tenant-limit-flags.ts";
import { post } from "./http-client.ts";

describe("tenant limit flags", () => {
  it("default to Dgraph's behaviour and the engine's schema and admission bounds", () => {
    expect(parseCliArgs([], {})).toMatchObject({
      engineLimits: {
        protectReservedPredicates: false,
        mutationLimits: { nquads: 1_000_000, bytes: 0, timeoutMs: 0 },
        alterLimits: {
          timeoutMs: 0,
          indexValues: 0,
          schemaBytes: 2 ** 20,
          schemaPredicates: 20_000,
          schemaTypes: 5000,
        },
        admission: { concurrent: 8, queued: 10_000, waitMs: 60_000 },
      },
      graphqlSchemaLimits: { maxBytes: 256 * 1024, maxTypes: 200, maxFields: 2000 },
    });
  });

  it("parse counts, sizes and durations, and refuse bad values", () => {
    const config = parseCliArgs(
      [
        "--protect-reserved-predicates",
        "--limit-mutation-nquads=5000",
        "--limit-mutation-size",
        "4MiB",
        "--mutation-timeout",
        "10s",
        "--alter-timeout=2m",
        "--limit-index-values",
        "100000",
        "--limit-graphql-schema-types",
        "50",
        "--limit-namespace-concurrency",
        "2",
        "--namespace-queue-wait",
        "5s",
      ],
      {},
    );
    expect(config.engineLimits).toMatchObject({
      protectReservedPredicates: true,
      mutationLimits: { nquads: 5000, bytes: 4 * 2 ** 20, timeoutMs: 10_000 },
      alterLimits: { timeoutMs: 120_000, indexValues: 100_000 },
      admission: { concurrent: 2, waitMs: 5000 },
    });
    expect(config.graphqlSchemaLimits.maxTypes).toBe(50);
    expect(() => parseCliArgs(["--limit-mutation-nquads", "0"], {})).toThrow(
      "--limit-mutation-nquads: not a positive whole number: 0",
    );
    expect(() => parseCliArgs(["--alter-timeout", "30"], {})).toThrow(
      '--alter-timeout: time: missing unit in duration "30" (write it as 30s, 500ms, 2m; 0 for none)',
    );
    expect(() => parseCliArgs(["--limit-graphql-schema-size", "big"], {})).toThrow(
      "--limit-graphql-schema-size: not a size: big (write it as 8MiB)",
    );
    for (const flag of Object.keys(TENANT_LIMIT_OPTIONS)) expect(USAGE).toContain(`--${flag}`);
  });

  it("are enforced by a server started with them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trellis-tenant-flags-"));
    const config = parseCliArgs(
      [
        ...["--data", dir, "--host", "127.0.0.1", "--port", "0", "--grpc-port", "0"],
        "--protect-reserved-predicates",
        "--limit-mutation-nquads",
        "2",
        "--limit-schema-predicates",
        "1",
        "--limit-graphql-schema-types",
        "1",
      ],
      {},
    );
    const running = await startServer(config, pino({ level: "silent" }));
    try {
      const base = `http://127.0.0.1:${running.port}`;
      const ask = async (contentType: string, path: string, body: string) =>
        JSON.stringify((await post(base, path, contentType, body)).json());
      expect(
        await ask(
          "application/rdf",
          "/mutate?commitNow=true",
          '{ set {\n_:a <n> "1" .\n_:a <n> "2" .\n_:a <n> "3" .\n} }',
        ),
      ).toContain("NQuad count in the request: 3, is more that threshold: 2");
      expect(
        await ask("application/rdf", "/mutate?commitNow=true", '{ set {\n_:a <dgraph.xid> "x" .\n} }'),
      ).toContain("Cannot mutate reserved predicate dgraph.xid");
      expect(await ask("application/dql", "/alter", "a: string .\nb: string .")).toContain(
        "Schema declares 2 predicates, more than this server's limit of 1 for one alter.",
      );
      expect(
        await ask(
          "application/graphql",
          "/admin/schema",
          "type A { id: ID! a: String } type B { id: ID! b: String }",
        ),
      ).toContain("The schema has 2 types, more than this server's limit of 1 types");
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createSchema, createYoga } from "graphql-yoga";
import * as tar from "tar";
import type { AppRuntime, ExecutionRecord } from "../../platform/src/app-runtime.ts";

/**
 * A small AppRuntime for the console's browser test: the platform's runtime seam served by graphql-yoga
 * instead of WebAssembly, so the test exercises the console and the platform without compiling an app.
 * A build is a folder with `functions.json`; `sayHello` succeeds and logs, `failHard` throws.
 */
export function fixtureAppRuntime(): AppRuntime {
  return {
    async prepareBuild(buildDir) {
      const { functions } = JSON.parse(await readFile(join(buildDir, "functions.json"), "utf8")) as {
        functions: string[];
      };
      return { functions };
    },
    async loadApp(_buildDir, { onExecution }) {
      const record = (fn: string, started: number, logs: ExecutionRecord["logs"], error?: string) =>
        onExecution({
          executionId: randomBytes(10).toString("hex"),
          function: fn,
          status: error ? "error" : "success",
          durationMs: Date.now() - started,
          startedAt: new Date(started).toISOString(),
          logs,
          error,
        });
      const yoga = createYoga({
        graphqlEndpoint: "*",
        logging: false,
        maskedErrors: false,
        schema: createSchema({
          typeDefs: "type Query { sayHello(name: String!): String! failHard: String }",
          resolvers: {
            Query: {
              sayHello: (_: unknown, { name }: { name: string }) => {
                record("sayHello", Date.now(), [{ level: "info", message: `greeting ${name}` }]);
                return `Hello, ${name}!`;
              },
              failHard: () => {
                const message = "the upstream API answered 503";
                record("failHard", Date.now(), [{ level: "error", message }], message);
                throw new Error(message);
              },
            },
          },
        }),
      });
      return {
        fetch: (request) => Promise.resolve(yoga.fetch(request)),
        unload: async () => {},
        close: async () => {},
      };
    },
  };
}

/**
 * A tar.gz of a fixture `build/` folder, as `trellis deploy` uploads it (with `manifest` as trellis.json
 * and `staticFiles`, by path, under `static/`: the front end).
 */
export async function fixtureBuildArchive(
  functions = ["sayHello", "failHard"],
  manifest?: Record<string, unknown>,
  staticFiles: Record<string, string> = {},
): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), "trellis-console-build-"));
  try {
    const files = ["functions.json", "schema.graphql"];
    await writeFile(join(dir, "functions.json"), JSON.stringify({ functions }));
    // The schema a real build carries (the platform makes the console's example operation from it).
    const fields = functions.map((f) =>
      f === "sayHello" ? "sayHello(name: String!): String!" : `${f}: String`,
    );
    await writeFile(join(dir, "schema.graphql"), `type Query { ${fields.join(" ")} }\n`);
    if (manifest) {
      await writeFile(join(dir, "trellis.json"), JSON.stringify(manifest));
      files.push("trellis.json");
    }
    for (const [path, text] of Object.entries(staticFiles)) {
      await mkdir(dirname(join(dir, "static", path)), { recursive: true });
      await writeFile(join(dir, "static", path), text);
      files.push(`static/${path}`);
    }
    const chunks: Buffer[] = [];
    const stream = tar.c({ gzip: true, cwd: dir, portable: true }, files);
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

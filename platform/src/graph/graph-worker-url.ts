/**
 * The graph database worker's entry. Compiled (dist/, the published package), it is graph-worker.js next to
 * this file. Running from the TypeScript sources (the repository's tests), it is one ESM module bundled
 * from the sources of this repository's packages, as a `data:` URL: workers do not inherit a TypeScript
 * loader. Only the repository's own code is bundled; every installed package (LMDB's native addon, gRPC,
 * Fastify…) is imported from where it is installed, by absolute file URL, since a `data:` module has no
 * folder to resolve package names from; and each source file's `import.meta.url` stays its own (the gRPC
 * server finds its .proto file from it). Built once per process.
 */
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";

let cached: Promise<URL> | undefined;

export function graphWorkerUrl(): Promise<URL> {
  const compiled = !import.meta.url.endsWith(".ts");
  cached ??= compiled ? Promise.resolve(new URL("./graph-worker.js", import.meta.url)) : bundleWorker();
  return cached;
}

/** Resolves workspace packages to their sources, as the repository's tsconfig and vitest do. */
const SOURCE_CONDITION = "@trellis/source";

async function bundleWorker(): Promise<URL> {
  const { build } = await import("esbuild");
  const entry = new URL("./graph-worker.ts", import.meta.url);
  const result = await build({
    entryPoints: [entry.pathname],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: [SOURCE_CONDITION],
    write: false,
    logLevel: "silent",
    plugins: [
      {
        name: "installed-packages-by-url",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.path.startsWith("node:") || args.pluginData === "inner") return undefined;
            if (args.path.startsWith("@trellis/")) return undefined;
            const found = await b.resolve(args.path, {
              kind: args.kind,
              resolveDir: args.resolveDir,
              pluginData: "inner",
            });
            if (found.errors.length > 0 || found.external) return { path: args.path, external: true };
            return { path: pathToFileURL(found.path).href, external: true };
          });
          b.onLoad({ filter: /\.ts$/ }, async (args) => {
            const source = await readFile(args.path, "utf8");
            const url = JSON.stringify(pathToFileURL(args.path).href);
            return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
          });
        },
      },
    ],
  });
  const code = result.outputFiles[0].text;
  return new URL(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}

import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

let cached: URL | undefined;

/**
 * The instance worker's entry. Compiled (dist/, the published package), it is instance-worker.js next to
 * this file, started as is. Running from the TypeScript sources (tests), it is a `data:` URL of one bundled
 * ESM module: workers do not inherit a TypeScript loader on Node 20, and starting one in every worker
 * costs 150-230 ms of cold start; a plain bundle starts in ~20 ms. Built once per process (a few ms).
 */
export function instanceWorkerUrl(): URL {
  if (!cached) {
    const compiled = !import.meta.url.endsWith(".ts");
    cached = compiled ? new URL("./instance-worker.js", import.meta.url) : bundleWorker();
  }
  return cached;
}

function bundleWorker(): URL {
  const entry = fileURLToPath(new URL("./instance-worker.ts", import.meta.url));
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].text;
  return new URL(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}

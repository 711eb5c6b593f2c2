import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

let cached: URL | undefined;

/**
 * The instance worker as a `data:` URL of one bundled ESM module. Workers do not inherit the tsx loader
 * on Node 20, and starting tsx in every worker costs 150-230 ms of cold start; a plain bundle starts in
 * ~20 ms. Built once per process (a few ms).
 */
export function instanceWorkerUrl(): URL {
  if (!cached) {
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
    cached = new URL(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  }
  return cached;
}

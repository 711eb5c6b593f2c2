#!/usr/bin/env -S node --max-semi-space-size=64
// A 64 MB young generation (V8 default: 16 MB): commits' short-lived objects die young instead of filling
// the old generation; HTTP loads take about 20% less CPU (bench/graphdb/README.md).
// Runs the compiled package (dist/); in a checkout of the repository, `npm run build` writes it.
const entry = new URL("../dist/index.js", import.meta.url);
const platform = await import(entry.href).catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || error.url !== entry.href) throw error;
  console.error(
    "trellis-platform: dist/ is missing; in a checkout of the Trellis repository, run `npm run build`.",
  );
  process.exit(1);
});
await platform.runPlatformCli(process.argv.slice(2), async () => platform.createWasmAppRuntime());

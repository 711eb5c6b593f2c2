#!/usr/bin/env -S node --max-semi-space-size=64
// A 64 MB young generation (V8 default: 16 MB): commits' short-lived objects die young instead of filling
// the old generation; HTTP loads take about 20% less CPU (bench/graphdb/README.md).
// Runs the compiled package (dist/); in a checkout of the repository, `npm run build` writes it.
// The launcher loads only the command line: the server runs in a child under Node's permission model.
const dist = (file) => new URL(`../dist/${file}`, import.meta.url).href;
const missing = (error, file) => error?.code === "ERR_MODULE_NOT_FOUND" && error.url === dist(file);
const launcher = await import(dist("launcher.js")).catch((error) => {
  if (!missing(error, "launcher.js")) throw error;
  console.error(
    "trellis-platform: dist/ is missing; in a checkout of the Trellis repository, run `npm run build`.",
  );
  process.exit(1);
});
const argv = process.argv.slice(2);
await launcher.launchPlatform(argv, async (role) => {
  const platform = await import(dist("index.js"));
  if (role === "prepare") return platform.preparePlatform(argv);
  return platform.runPlatformCli(argv, async (settings) => platform.createWasmAppRuntime(settings));
});

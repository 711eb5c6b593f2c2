// Bundles the action into dist/index.js (committed: GitHub runs it without installing anything).
// Run: node .github/actions/deploy/build.mjs
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The deploy client is @trellis/runtime's (one client for `trellis deploy` and the action), imported from
 * its TypeScript sources (the "@trellis/source" export), so the bundle does not depend on a build of the
 * runtime. The runtime's other dependencies (compilers, database drivers, native modules) are never
 * reached by the action: they stay external, and the runtime's `"sideEffects": false` drops the modules
 * that import them. The bundle must end up importing only Node's builtins.
 */
const RUNTIME_PACKAGE = JSON.parse(readFileSync(here("../../../runtime/package.json"), "utf8"));
// undici: the runtime's own (its egress policy) is never reached here, but @actions/core's HTTP client
// needs it, bundled as before it became a runtime dependency.
const BUNDLED = new Set(["tar", "undici"]);
const UNUSED = Object.keys(RUNTIME_PACKAGE.dependencies).filter((name) => !BUNDLED.has(name));

export async function bundleAction(outfile = here("./dist/index.js")) {
  const result = await build({
    entryPoints: [here("./src/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node24",
    format: "esm",
    conditions: ["@trellis/source"],
    external: UNUSED,
    metafile: true,
    // CommonJS dependencies inside an ES module bundle need a `require`.
    banner: {
      js: 'import { createRequire as __trellisRequire } from "node:module"; const require = __trellisRequire(import.meta.url);',
    },
    legalComments: "none",
    logLevel: "warning",
  });
  const builtins = new Set(builtinModules);
  const imported = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
  const stray = imported.filter((path) => !path.startsWith("node:") && !builtins.has(path));
  if (stray.length > 0) {
    throw new Error(
      `the action's bundle would need ${[...new Set(stray)].join(", ")} at run time, which GitHub does not install: ` +
        "bundle it (add it to BUNDLED in .github/actions/deploy/build.mjs) or stop importing it",
    );
  }
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleAction();

// Bundles the action into dist/index.js (committed: GitHub runs it without installing anything).
// Run: node .github/actions/deploy/build.mjs
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

export async function bundleAction(outfile = here("./dist/index.js")) {
  await build({
    entryPoints: [here("./src/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    // CommonJS dependencies inside an ES module bundle need a `require`.
    banner: {
      js: 'import { createRequire as __trellisRequire } from "node:module"; const require = __trellisRequire(import.meta.url);',
    },
    legalComments: "none",
    logLevel: "warning",
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleAction();

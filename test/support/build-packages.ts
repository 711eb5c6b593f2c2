/**
 * Vitest global setup: compiles the packages to dist/ (`tsc -b tsconfig.build.json`, incremental: about
 * two seconds when nothing changed), because tests that start a bin (`trellis`, `trellis-graphdb`) or pack
 * a package run the compiled code. Tests that import sources need no build. A type error does not stop
 * the run (tsc still writes the JavaScript; `npm run typecheck` reports it): it is printed as a warning.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export default function buildPackages(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    process.stderr.write(
      `\nwarning: \`npm run build\` (tsc -b tsconfig.build.json) reported errors; tests that run dist/ may fail:\n${result.stdout}${result.stderr}\n`,
    );
  }
}

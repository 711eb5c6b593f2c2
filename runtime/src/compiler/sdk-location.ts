/**
 * Which `@trellis/sdk` a TypeScript app is built against, found the way the app's own imports find it:
 * the app's node_modules first (`npm i -D @trellis/sdk`), else the SDK installed with this runtime (a
 * dependency of @trellis/runtime), so an app without node_modules still builds.
 *
 * Entries come from the SDK's package.json `exports`. When the runtime itself runs from its TypeScript
 * sources (tests in the repository), the "@trellis/source" condition is tried first, so an in-repo build
 * uses the SDK's sources and needs no `npm run build`; compiled, the runtime uses the SDK's dist/.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BuildError } from "./ts-build-error.ts";

export interface SdkLocation {
  /** The SDK package's directory. */
  dir: string;
  /** What the type checker reads for `@trellis/sdk` (.d.ts, or .ts from sources). */
  types: string;
  /** What the bundler includes for `@trellis/sdk`. */
  module: string;
  /** The module whose `routeConsoleToHost` the generated glue calls (`@trellis/sdk/console`). */
  console: string;
}

const SDK = "@trellis/sdk";
const SOURCE_CONDITION = "@trellis/source";
const RUNNING_FROM_SOURCE = import.meta.url.endsWith(".ts");

type Exports = string | { [conditionOrPath: string]: Exports } | null | undefined;

export function locateSdk(appDir: string): SdkLocation {
  const manifest = resolvePackageJson(join(appDir, "package.json")) ?? resolvePackageJson(import.meta.url);
  if (!manifest) {
    throw new BuildError(`${SDK} is not installed`, [`install it in the app: npm install --save-dev ${SDK}`]);
  }
  const dir = dirname(manifest);
  const exports = (JSON.parse(readFileSync(manifest, "utf8")) as { exports?: Exports }).exports;
  const entry = (subpath: string, conditions: string[]): string => {
    const fromSource = RUNNING_FROM_SOURCE
      ? target(exports, subpath, [SOURCE_CONDITION, ...conditions])
      : undefined;
    if (fromSource && existsSync(join(dir, fromSource))) return join(dir, fromSource);
    const file = target(exports, subpath, conditions);
    if (!file) throw new BuildError(`${SDK} in ${dir} does not export "${subpath}"`, [reinstall(dir)]);
    if (!existsSync(join(dir, file))) {
      throw new BuildError(`${SDK} in ${dir} is missing ${file}`, [reinstall(dir)]);
    }
    return join(dir, file);
  };
  return {
    dir,
    types: entry(".", ["types", "import", "default"]),
    module: entry(".", ["import", "default"]),
    console: entry("./console", ["import", "default"]),
  };
}

/** The SDK's package.json as resolved from `from` (a file path or URL), or undefined when not found. */
function resolvePackageJson(from: string): string | undefined {
  try {
    return realpathSync(createRequire(from).resolve(`${SDK}/package.json`));
  } catch {
    return undefined;
  }
}

/** The target of `subpath` in an exports map: the first key, in the map's order, among `conditions`. */
function target(exports: Exports, subpath: string, conditions: string[]): string | undefined {
  const pick = (value: Exports): string | undefined => {
    if (typeof value === "string") return value;
    if (!value) return undefined;
    for (const [key, next] of Object.entries(value)) {
      if (!conditions.includes(key)) continue;
      const found = pick(next);
      if (found) return found;
    }
    return undefined;
  };
  if (typeof exports === "string") return subpath === "." ? exports : undefined;
  if (exports && Object.keys(exports).some((k) => k.startsWith("."))) return pick(exports[subpath]);
  return subpath === "." ? pick(exports) : undefined;
}

function reinstall(dir: string): string {
  return existsSync(join(dir, "src"))
    ? "in a checkout of the Trellis repository, run `npm run build`"
    : `reinstall it: npm install --save-dev ${SDK}`;
}

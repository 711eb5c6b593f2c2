/**
 * The TypeScript build path: `src/index.ts` → exported signatures → WIT world + glue → one esbuild ESM
 * bundle → a WebAssembly component built by componentize-qjs (QuickJS; ~1 s and ~1.6 MB per app, where
 * componentize-js/SpiderMonkey takes 15-35 s and makes 12 MB).
 *
 * componentize-qjs runs with `sync: true` (the component does not use component-model async, so jco runs
 * it on Node 20). `stubWasi` stays off: in 0.4.5 it fails on any world whose types refer to other named
 * types ("failed to decode component WIT"), so the component keeps WASI imports that the runtime's
 * sandboxed WASI shim satisfies.
 */
import { readFileSync } from "node:fs";
import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { basename, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import qjs from "componentize-qjs";
import * as esbuild from "esbuild";
import { embedAppWit } from "../wit/app-wit-section.ts";
import type { AppWorld } from "../wit/wit-types.ts";
import { locateSdk } from "./sdk-location.ts";
import { BuildError } from "./ts-build-error.ts";
import { generateGlue } from "./ts-glue.ts";
import { extractSignatures } from "./ts-signatures.ts";
import { APP_WORLD_NAME, appPackageName, generateAppWit } from "./wit-world-generator.ts";

export interface TypeScriptBuildOptions {
  outDir: string;
  /** Called as each step starts, for spinners. */
  onProgress?: (step: string) => void;
}

export interface TypeScriptBuildResult {
  /** The component, with the app's WIT embedded (wit/app-wit-section.ts). Also written to outDir/app.wasm. */
  component: Uint8Array;
  world: AppWorld;
  /** outDir/wit: the app package (world.wit) and the host package (deps/trellis-app/host.wit). */
  witDir: string;
  warnings: string[];
}

const HOST_WIT = fileURLToPath(new URL("../../wit/host.wit", import.meta.url));
const HOST_IMPORT = /^trellis:app\/host(@[0-9.]+)?$/;

export async function buildTypeScriptApp(
  appDirInput: string,
  options: TypeScriptBuildOptions,
): Promise<TypeScriptBuildResult> {
  const appDir = resolve(appDirInput);
  const outDir = resolve(options.outDir);
  const step = options.onProgress ?? (() => {});

  step("Reading exported functions");
  const sdk = locateSdk(appDir);
  const signatures = extractSignatures(appDir, sdk.types);
  if (signatures.errors.length > 0) {
    const n = signatures.errors.length;
    throw new BuildError(`${n} problem${n === 1 ? "" : "s"} in the app's exported functions`, [
      ...signatures.errors,
      ...signatures.typeErrors,
    ]);
  }
  if (signatures.typeErrors.length > 0) {
    const n = signatures.typeErrors.length;
    throw new BuildError(
      `${n} TypeScript error${n === 1 ? "" : "s"}: the app is built only once it type-checks (as \`npx tsc --noEmit\` does)`,
      signatures.typeErrors,
    );
  }
  const wit = generateAppWit(signatures.shapes, appPackageName(appName(appDir)));

  step("Generating the WIT world");
  const witDir = join(outDir, "wit");
  await rm(witDir, { recursive: true, force: true });
  await mkdir(join(witDir, "deps", "trellis-app"), { recursive: true });
  await writeFile(join(witDir, "world.wit"), wit.text);
  await copyFile(HOST_WIT, join(witDir, "deps", "trellis-app", "host.wit"));

  step("Bundling with esbuild");
  const glue = generateGlue(signatures.shapes, "./src/index.ts", sdk.console);
  const bundle = await bundleApp(appDir, glue, sdk.module);

  step("Componentizing with QuickJS");
  let component: Uint8Array;
  try {
    const built = await qjs.componentize({
      witPath: witDir,
      world: APP_WORLD_NAME,
      jsSource: bundle,
      sync: true,
    });
    component = embedAppWit(new Uint8Array(built.component), wit.text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new BuildError("componentize-qjs could not build the component", [message]);
  }
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, "app.wasm"), component);
  return { component, world: wit.world, witDir, warnings: signatures.warnings };
}

async function bundleApp(appDir: string, glue: string, sdkModule: string): Promise<string> {
  try {
    const result = await esbuild.build({
      stdin: { contents: glue, resolveDir: appDir, sourcefile: "trellis-glue.js", loader: "js" },
      bundle: true,
      write: false,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      target: "es2022",
      logLevel: "silent",
      plugins: [
        {
          name: "trellis",
          setup(build) {
            build.onResolve({ filter: HOST_IMPORT }, (args) => ({ path: args.path, external: true }));
            // The SDK the signatures were read from (sdk-location.ts): the app's own, else the runtime's.
            build.onResolve({ filter: /^@trellis\/sdk$/ }, () => ({ path: sdkModule }));
          },
        },
      ],
    });
    return result.outputFiles[0]!.text;
  } catch (error) {
    const failure = error as { errors?: esbuild.Message[] };
    if (!failure.errors) throw error;
    const diagnostics = failure.errors.map((m) => {
      const at = m.location
        ? `${relPath(appDir, m.location.file)}:${m.location.line}:${m.location.column + 1}: `
        : "";
      return `${at}${m.text}`;
    });
    throw new BuildError("esbuild could not bundle the app", diagnostics);
  }
}

/** The app's name: package.json `name`, else the directory name. */
function appName(appDir: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8")) as { name?: unknown };
    if (typeof pkg.name === "string" && pkg.name !== "") return pkg.name;
  } catch {
    // no or unreadable package.json: the directory name will do
  }
  return basename(appDir);
}

function relPath(appDir: string, file: string): string {
  const r = relative(appDir, resolve(appDir, file));
  return r.startsWith("..") ? file : r.split(sep).join("/");
}

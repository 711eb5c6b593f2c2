/**
 * `trellis build`: app source → `build/` (the deploy unit):
 *   app.wasm         the WebAssembly component (its WIT is the single source of the API)
 *   transpiled/      jco's JS glue + core modules, so loading never transpiles per request
 *   trellis.json     the manifest, validated
 *   schema.graphql   the GraphQL SDL derived from the component's own WIT
 *   build-info.json  name, language, time, functions
 *   static/          the front end, when trellis.json has `web` (Vite's output, precompressed; see
 *                    app/build-layout.ts), with its GraphQL types generated from schema.graphql first
 * The build happens in a staging directory that replaces `build/` only when everything succeeded, so a
 * failed build never leaves a half-written deploy unit (and `trellis dev` keeps serving the last one).
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { STATIC_DIR } from "../app/build-layout.ts";
import { buildAppSchema } from "../graphql/schema-builder.ts";
import { SCHEMA_FILE_NAME } from "../graphql/schema-file.ts";
import { loadManifest } from "../manifest/load-manifest.ts";
import { transpileComponent } from "../wasm/transpile-component.ts";
import { buildSite, type SiteBuildSummary } from "../web/site-build.ts";
import type { SiteLimits } from "../web/site-limits.ts";
import { generateWebTypes } from "../web/web-graphql-types.ts";
import { resolveWebRoot } from "../web/web-root.ts";
import { embedAppWit } from "../wit/app-wit-section.ts";
import { readAppWorld } from "../wit/wit-parser.ts";
import { buildGoApp } from "./go/go-builder.ts";
import type { GoCompiler } from "./go/go-toolchain.ts";
import { renderGoWorld } from "./go/go-wit.ts";
import { buildTypeScriptApp } from "./ts-component-builder.ts";

const TS_COMPILER = "componentize-qjs (QuickJS)";

export type AppLanguageKind = "typescript" | "go";

export interface BuildSummary {
  appDir: string;
  outDir: string;
  name: string;
  language: AppLanguageKind;
  /** GraphQL root fields generated, e.g. `Query.person`. */
  fields: string[];
  componentBytes: number;
  warnings: string[];
  durationMs: number;
  /** What compiled the app: `componentize-qjs 0.4.5`, `Go 1.26.8`, `TinyGo 0.38.0`. */
  compiler: string;
  /** The front end built into `static/` (apps with `web`, unless `frontEnd: "types"`). */
  site?: SiteBuildSummary;
}

export interface BuildOptions {
  outDir?: string;
  /** Go apps: force the compiler (default: TinyGo when on PATH, else Go; TRELLIS_GO_COMPILER). */
  goCompiler?: GoCompiler;
  /** Called as each step starts, for spinners. */
  onStep?: (step: string) => void;
  /**
   * Apps with `web`: "build" (default) builds the front end into `static/`; "types" only regenerates its
   * GraphQL types (`trellis dev`, where Vite serves the sources), and a mismatch is a warning, not an error.
   */
  frontEnd?: "build" | "types";
  /** Apps with `web`: the site limits (default: build-layout.ts). */
  siteLimits?: SiteLimits;
}

export function detectLanguage(appDir: string): AppLanguageKind {
  if (existsSync(join(appDir, "go.mod"))) return "go";
  if (existsSync(join(appDir, "src", "index.ts")) || existsSync(join(appDir, "package.json")))
    return "typescript";
  throw new Error(
    `${appDir} is not a Trellis app: expected go.mod (Go) or src/index.ts (TypeScript) next to trellis.json`,
  );
}

export async function buildApp(appDirInput: string, options: BuildOptions = {}): Promise<BuildSummary> {
  const started = Date.now();
  const appDir = resolve(appDirInput);
  const outDir = resolve(options.outDir ?? join(appDir, "build"));
  const step = options.onStep ?? (() => {});

  step("Validating trellis.json");
  const { file: manifestFile, manifest } = await loadManifest(appDir);
  const language = detectLanguage(appDir);
  const webRoot = manifest.web && resolveWebRoot(appDir, manifest.web);

  const staging = `${outDir}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    step(language === "go" ? "Compiling Go to a component" : "Compiling TypeScript to a component");
    const built =
      language === "go"
        ? await buildGoApp(appDir, {
            outDir: staging,
            onProgress: step,
            ...(options.goCompiler ? { compiler: options.goCompiler } : {}),
          })
        : {
            ...(await buildTypeScriptApp(appDir, { outDir: staging, onProgress: step })),
            compiler: TS_COMPILER,
          };
    const component =
      language === "go" ? embedAppWit(built.component, renderGoWorld(built.world)) : built.component;
    await writeFile(join(staging, "app.wasm"), component);

    step("Reading the component's WIT");
    const world = await readAppWorld(component);
    step("Generating the GraphQL schema");
    const schema = buildAppSchema(world);
    await writeFile(join(staging, SCHEMA_FILE_NAME), schema.sdl);

    step("Transpiling with jco");
    await transpileComponent(component, join(staging, "transpiled"));

    const warnings = [...built.warnings];
    let site: SiteBuildSummary | undefined;
    if (webRoot) {
      step("Generating the front end's GraphQL types");
      const types = generateWebTypes(webRoot, schema.sdl);
      if (options.frontEnd === "types") await types.catch((e: Error) => warnings.push(e.message));
      else {
        await types;
        site = await buildSite({
          webRoot,
          outDir: join(staging, STATIC_DIR),
          onStep: step,
          ...(options.siteLimits ? { limits: options.siteLimits } : {}),
        });
        warnings.push(...site.warnings);
      }
    }

    await writeFile(join(staging, "trellis.json"), await readFile(manifestFile));
    const name = appName(appDir);
    const fields = schema.fields.map((f) => `${f.rootType}.${f.fieldName}`);
    await writeFile(
      join(staging, "build-info.json"),
      `${JSON.stringify({ name, language, compiler: built.compiler, builtAt: new Date().toISOString(), fields }, null, 2)}\n`,
    );
    await rm(outDir, { recursive: true, force: true });
    await rename(staging, outDir);
    return {
      appDir,
      outDir,
      name,
      language,
      fields,
      componentBytes: component.byteLength,
      compiler: built.compiler,
      warnings,
      durationMs: Date.now() - started,
      ...(site ? { site } : {}),
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function appName(appDir: string): string {
  return basename(appDir);
}

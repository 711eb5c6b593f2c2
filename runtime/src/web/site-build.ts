/**
 * `trellis build` for an app's front end: Vite (as a library) builds the web root into `build/static/`
 * (build-layout.ts: hashed assets under `assets/`, Vite's manifest at `.vite/manifest.json`), the result is
 * held to the site limits, and its text files are precompressed.
 */
import { basename } from "node:path";
import type { Logger } from "vite";
import { STATIC_ASSETS_DIR, STATIC_VITE_MANIFEST } from "../app/build-layout.ts";
import { BuildError } from "../compiler/ts-build-error.ts";
import { precompressSite } from "./precompress.ts";
import { listSiteFiles } from "./site-files.ts";
import { checkSiteLimits, DEFAULT_SITE_LIMITS, type SiteLimits } from "./site-limits.ts";

export interface SiteBuildOptions {
  /** The Vite project (the app's `web.root`). */
  webRoot: string;
  /** Where the site goes (`<build>/static`); emptied first. */
  outDir: string;
  limits?: SiteLimits;
  /** Called as each step starts. */
  onStep?: (step: string) => void;
}

export interface SiteBuildSummary {
  /** Files Vite wrote (without the precompressed variants). */
  files: number;
  bytes: number;
  /** Files with `.br`/`.gz` variants, and how many variants. */
  precompressed: { files: number; variants: number };
  /** Vite's warnings, for the terminal. */
  warnings: string[];
  durationMs: number;
}

export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildSummary> {
  const started = Date.now();
  const step = options.onStep ?? (() => {});
  const warnings: string[] = [];
  step("Building the front end with Vite");
  // Loaded when used: importing Vite probes the filesystem (see vite-dev-server.ts).
  const { build, createLogger } = await import("vite");
  try {
    await build({
      root: options.webRoot,
      base: "/",
      mode: "production",
      logLevel: "warn",
      clearScreen: false,
      customLogger: collectingLogger(createLogger("warn", { allowClearScreen: false }), warnings),
      build: {
        outDir: options.outDir,
        emptyOutDir: true,
        assetsDir: STATIC_ASSETS_DIR,
        manifest: STATIC_VITE_MANIFEST,
      },
    });
  } catch (e) {
    throw new BuildError(
      `Vite could not build the front end in ${basename(options.webRoot)}/: ${(e as Error).message}`,
    );
  }
  const files = await listSiteFiles(options.outDir);
  checkSiteLimits(files, options.limits ?? DEFAULT_SITE_LIMITS, basename(options.webRoot));
  step("Precompressing the front end (brotli, gzip)");
  const precompressed = await precompressSite(options.outDir, files);
  return {
    files: files.length,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    precompressed,
    warnings,
    durationMs: Date.now() - started,
  };
}

/**
 * Vite's logger, keeping warnings for the build summary instead of printing them mid-spinner; errors
 * reach the user as the BuildError that buildSite throws.
 */
function collectingLogger(logger: Logger, warnings: string[]): Logger {
  return {
    ...logger,
    error: () => {},
    warn: (message) => warnings.push(`vite: ${message}`),
    warnOnce: (message) => {
      if (!warnings.includes(`vite: ${message}`)) warnings.push(`vite: ${message}`);
    },
  };
}

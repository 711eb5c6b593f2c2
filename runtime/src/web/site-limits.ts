import { STATIC_MAX_BYTES, STATIC_MAX_FILES } from "../app/build-layout.ts";
import { BuildError } from "../compiler/ts-build-error.ts";
import type { SiteFile } from "./site-files.ts";

/** How big a built front end may be (build-layout.ts: the platform holds deployments to the same). */
export interface SiteLimits {
  maxFiles: number;
  maxBytes: number;
}

export const DEFAULT_SITE_LIMITS: SiteLimits = { maxFiles: STATIC_MAX_FILES, maxBytes: STATIC_MAX_BYTES };

const LARGEST_SHOWN = 5;

/** Throws a BuildError when the files Vite wrote exceed a limit, naming the largest files. */
export function checkSiteLimits(files: SiteFile[], limits: SiteLimits, webRootName: string): void {
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  const largest = [...files]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, LARGEST_SHOWN)
    .map((f) => `  ${f.path} ${formatBytes(f.bytes)}`);
  const advice =
    `: remove files the site does not use (${webRootName}/public is copied whole), or serve large media ` +
    "from elsewhere (object storage, a CDN)";
  if (files.length > limits.maxFiles) {
    throw new BuildError(
      `The front end built to ${files.length.toLocaleString("en-US")} files, more than the ` +
        `${limits.maxFiles.toLocaleString("en-US")} a site may have${advice}`,
    );
  }
  if (bytes > limits.maxBytes) {
    throw new BuildError(
      `The front end built to ${formatBytes(bytes)}, more than the ${formatBytes(limits.maxBytes)} a site ` +
        `may have${advice}. Largest files:`,
      largest,
    );
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

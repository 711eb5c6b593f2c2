import { stat } from "node:fs/promises";
import { join } from "node:path";
import {
  STATIC_DIR,
  STATIC_ENCODINGS,
  STATIC_INDEX_FILE,
  STATIC_MAX_BYTES,
  STATIC_MAX_FILES,
} from "@trellis/runtime";
import { isSibling, SiteFilesError, walkSiteFiles } from "./site-files.ts";

/** Bounds of one deployment's static site, counting the files Vite wrote (not their `.br`/`.gz` siblings). */
export interface SiteLimits {
  maxFiles: number;
  maxBytes: number;
}

/** 10,000 files and 100 MiB, as `trellis build` checks them before uploading. */
export const DEFAULT_SITE_LIMITS: SiteLimits = { maxFiles: STATIC_MAX_FILES, maxBytes: STATIC_MAX_BYTES };

/** What a deployment's site holds, once accepted. */
export interface SiteSummary {
  files: number;
  bytes: number;
  /** It has an `index.html` at its root (its home page). */
  hasIndex: boolean;
}

/** A folder per file and one sibling per encoding: the most entries a site within `limits` can walk. */
export function maxSiteEntries(limits: SiteLimits): number {
  return limits.maxFiles * (1 + STATIC_ENCODINGS.length) * 2;
}

/**
 * Checks the static site of an unpacked build (`build/static/`) before it may go live: only regular files
 * and folders with sane names, within `limits`, and an `index.html` when `spaFallback` is on (every unknown
 * path would otherwise fall back to nothing). Returns undefined when the build has no site. Throws a
 * SiteFilesError saying what to change.
 */
export async function checkSite(
  buildDir: string,
  spaFallback: boolean,
  limits: SiteLimits = DEFAULT_SITE_LIMITS,
): Promise<SiteSummary | undefined> {
  const dir = join(buildDir, STATIC_DIR);
  const info = await stat(dir).catch(() => undefined);
  if (!info) return undefined;
  if (!info.isDirectory())
    throw new SiteFilesError(`${STATIC_DIR} is not a folder: rebuild with \`trellis build\``);
  const walked = await walkSiteFiles(dir, maxSiteEntries(limits));
  const paths = new Set(walked.map((f) => f.path));
  let files = 0;
  let bytes = 0;
  for (const file of walked) {
    if (isSibling(file.path, paths)) continue;
    files++;
    bytes += file.size;
  }
  if (files > limits.maxFiles) {
    throw new SiteFilesError(
      `the site has ${files} files; the limit is ${limits.maxFiles}: serve large collections from a bucket or CDN`,
    );
  }
  if (bytes > limits.maxBytes) {
    throw new SiteFilesError(
      `the site's files total ${bytes} bytes; the limit is ${limits.maxBytes}: shrink or remove large files`,
    );
  }
  if (spaFallback && !paths.has(STATIC_INDEX_FILE)) {
    throw new SiteFilesError(
      `web.spaFallback is on but ${STATIC_DIR}/${STATIC_INDEX_FILE} is missing: add an index.html to the front end, or set "spaFallback": false in trellis.json`,
    );
  }
  return { files, bytes, hasIndex: paths.has(STATIC_INDEX_FILE) };
}

import { join } from "node:path";
import { STATIC_ASSETS_DIR, STATIC_DIR, STATIC_ENCODINGS, STATIC_VITE_MANIFEST } from "@trellis/runtime";
import { contentType, lookup } from "mime-types";
import { isSibling, viteManifestFiles, walkSiteFiles } from "./site-files.ts";

export type SiteEncoding = (typeof STATIC_ENCODINGS)[number]["encoding"];

/** One stored representation of a file: as written, or one of its precompressed siblings. */
export interface SiteRepresentation {
  absolute: string;
  size: number;
  encoding: SiteEncoding | undefined;
  /** Strong ETag (a hash of these bytes), computed on first use. */
  etag?: string;
}

/** A file the site serves, by its URL path without the leading `/`. */
export interface SiteFile {
  contentType: string;
  /** A content-hashed name (Vite's output): cached for a year; everything else revalidates. */
  immutable: boolean;
  identity: SiteRepresentation;
  /** Precompressed siblings, in the order of preference of STATIC_ENCODINGS. */
  encoded: SiteRepresentation[];
}

/** A deployment's static site, in memory: its files' metadata (never their contents). */
export interface SiteIndex {
  files: Map<string, SiteFile>;
  spaFallback: boolean;
}

/** Files under `assets/` named `name-<hash>.ext`, as Vite names its output (8 characters of base64url). */
const HASHED_ASSET = new RegExp(`^${STATIC_ASSETS_DIR}/(?:.+/)?[^/]+[-.][A-Za-z0-9_-]{8,}\\.[A-Za-z0-9]+$`);
/** Build metadata beside the site, never served. */
const HIDDEN_PREFIX = `${STATIC_VITE_MANIFEST.split("/")[0]}/`;

/**
 * Reads the metadata of `<buildDir>/static/`: every file with its content type, whether its name is
 * content-hashed (named by Vite's manifest, or a hashed name under `assets/`), and its precompressed
 * siblings. Walks at most `maxEntries` entries (the deploy check has already held the site to its limits).
 */
export async function loadSiteIndex(
  buildDir: string,
  spaFallback: boolean,
  maxEntries: number,
): Promise<SiteIndex> {
  const dir = join(buildDir, STATIC_DIR);
  const walked = await walkSiteFiles(dir, maxEntries);
  const hashed = await viteManifestFiles(join(dir, STATIC_VITE_MANIFEST));
  const byPath = new Map(walked.map((f) => [f.path, f]));
  const paths = new Set(byPath.keys());
  const files = new Map<string, SiteFile>();
  for (const file of walked) {
    if (file.path.startsWith(HIDDEN_PREFIX) || isSibling(file.path, paths)) continue;
    const encoded: SiteRepresentation[] = [];
    for (const { encoding, suffix } of STATIC_ENCODINGS) {
      const sibling = byPath.get(file.path + suffix);
      if (sibling) encoded.push({ absolute: sibling.absolute, size: sibling.size, encoding });
    }
    files.set(file.path, {
      contentType: typeOf(file.path),
      immutable: hashed.has(file.path) || HASHED_ASSET.test(file.path),
      identity: { absolute: file.absolute, size: file.size, encoding: undefined },
      encoded,
    });
  }
  return { files, spaFallback };
}

/** The Content-Type of a file by its extension, with a charset for text. */
function typeOf(path: string): string {
  const type = lookup(path);
  return type ? contentType(type) || type : "application/octet-stream";
}

import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { STATIC_ENCODINGS } from "@trellis/runtime";

/** A regular file of a site, by its path relative to the site's folder (`assets/app.js`). */
export interface WalkedFile {
  path: string;
  absolute: string;
  size: number;
}

/** A site that cannot be served as uploaded; the message says which file and why. */
export class SiteFilesError extends Error {
  override name = "SiteFilesError";
}

/** Names a site's files may have: printable, no backslash (a Windows separator), at most 255 bytes a segment. */
const BAD_NAME = /[\u0000-\u001f\u007f\\]/;

/**
 * Every regular file under `dir`, depth first, in a stable order. Refuses anything else (a symbolic link,
 * a device, a socket), a name with a control character or a backslash, and more than `maxEntries` entries
 * (files and folders), so that walking a hostile site costs a bounded amount.
 */
export async function walkSiteFiles(dir: string, maxEntries: number): Promise<WalkedFile[]> {
  const files: WalkedFile[] = [];
  let entries = 0;
  const walk = async (folder: string, prefix: string): Promise<void> => {
    const children = (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const child of children) {
      const path = prefix + child.name;
      if (++entries > maxEntries) {
        throw new SiteFilesError(`static/ has more than ${maxEntries} files and folders`);
      }
      if (BAD_NAME.test(child.name)) {
        throw new SiteFilesError(
          `static/${JSON.stringify(path)} has a control character or a backslash in its name`,
        );
      }
      const absolute = join(folder, child.name);
      if (child.isDirectory()) await walk(absolute, `${path}/`);
      else if (child.isFile()) files.push({ path, absolute, size: (await stat(absolute)).size });
      else throw new SiteFilesError(`static/${path} is not a regular file or folder; only those are served`);
    }
  };
  await walk(dir, "");
  return files;
}

/** The `.br`/`.gz` suffixes of precompressed siblings, longest first. */
const SIBLING_SUFFIXES = STATIC_ENCODINGS.map((e) => e.suffix);

/**
 * Whether `path` is a precompressed sibling (`app.js.br` next to `app.js`): a variant of that file, not a
 * file of its own.
 */
export function isSibling(path: string, paths: ReadonlySet<string>): boolean {
  return SIBLING_SUFFIXES.some((suffix) => path.endsWith(suffix) && paths.has(path.slice(0, -suffix.length)));
}

/** Largest Vite manifest read: beyond it its entries are not trusted for caching (assets/ names still are). */
const MAX_VITE_MANIFEST_BYTES = 8 * 1024 * 1024;

/**
 * The output files named by Vite's manifest (`file`, `css`, `assets` of every chunk): each has a content
 * hash in its name. Empty when the manifest is absent, too large or not Vite's.
 */
export async function viteManifestFiles(file: string): Promise<Set<string>> {
  const named = new Set<string>();
  try {
    if ((await stat(file)).size > MAX_VITE_MANIFEST_BYTES) return named;
    const chunks = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    for (const chunk of Object.values(chunks)) {
      if (typeof chunk !== "object" || chunk === null) continue;
      const { file: output, css, assets } = chunk as { file?: unknown; css?: unknown; assets?: unknown };
      for (const name of [
        output,
        ...(Array.isArray(css) ? css : []),
        ...(Array.isArray(assets) ? assets : []),
      ]) {
        if (typeof name === "string") named.add(name);
      }
    }
  } catch {
    // No manifest, or not one we understand: hashed names under assets/ are recognised anyway.
  }
  return named;
}

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

export interface SiteFile {
  /** Relative to the site's folder, with `/`. */
  path: string;
  bytes: number;
}

/** Every file under `dir` (recursively, dot folders such as `.vite/` included), sorted by path. */
export async function listSiteFiles(dir: string): Promise<SiteFile[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: SiteFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const path = full
      .slice(dir.length + 1)
      .split("\\")
      .join("/");
    files.push({ path, bytes: (await stat(full)).size });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

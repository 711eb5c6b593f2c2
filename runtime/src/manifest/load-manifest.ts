import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ManifestError } from "./manifest-error.ts";
import type { Manifest } from "./manifest-schema.ts";
import { parseManifest } from "./parse-manifest.ts";

export const MANIFEST_FILE = "trellis.json";
/** Read when there is no trellis.json, so a Modus app runs unchanged. */
export const MODUS_MANIFEST_FILE = "modus.json";

export interface LoadedManifest {
  manifest: Manifest;
  /** Absolute path of the file read. */
  file: string;
}

/**
 * Reads the manifest of the app in `appDir`: `trellis.json`, else `modus.json` (noted in
 * `manifest.notices`). A missing file is a ManifestError telling how to create one.
 */
export async function loadManifest(appDir: string): Promise<LoadedManifest> {
  for (const name of [MANIFEST_FILE, MODUS_MANIFEST_FILE]) {
    const file = join(appDir, name);
    if (!existsSync(file)) continue;
    const manifest = parseManifest(await readFile(file, "utf8"), name);
    if (name === MODUS_MANIFEST_FILE) {
      manifest.notices.unshift(`read ${MODUS_MANIFEST_FILE} (no ${MANIFEST_FILE} in ${appDir})`);
    }
    return { manifest, file };
  }
  throw new ManifestError(
    [
      {
        path: join(appDir, MANIFEST_FILE),
        message: `not found; create it (an empty {} is a valid manifest)`,
      },
    ],
    MANIFEST_FILE,
  );
}

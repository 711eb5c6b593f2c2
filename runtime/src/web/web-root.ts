import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { BuildError } from "../compiler/ts-build-error.ts";
import type { WebConfig } from "../manifest/manifest-schema.ts";

/** The front end's entry page, in the web root (Vite's root) and in the build. */
const INDEX_HTML = "index.html";

/**
 * The absolute folder of the app's front end (`web.root` of trellis.json, Vite's root). Throws when it has
 * no index.html: Vite would build nothing to serve at `/`.
 */
export function resolveWebRoot(appDir: string, web: WebConfig): string {
  const root = resolve(appDir, web.root);
  if (!existsSync(join(root, INDEX_HTML))) {
    throw new BuildError(
      `trellis.json has "web" but ${join(web.root, INDEX_HTML)} does not exist: create the front end there ` +
        `(\`trellis new\` scaffolds one), point "web.root" at its folder, or remove "web" from trellis.json`,
    );
  }
  return root;
}

import { fileURLToPath } from "node:url";
import { build } from "vite";

const CONSOLE_ROOT = fileURLToPath(new URL("../../console/", import.meta.url));

/**
 * Builds the console with Vite's JS API into `outDir` (a temp dir, so tests never touch console/dist).
 * Vitest sets NODE_ENV=test, which makes Vite and the React plugin emit a development bundle that does
 * not render; the build runs with NODE_ENV=production, as `npx vite build` does.
 */
export async function buildConsole(outDir: string): Promise<void> {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      root: CONSOLE_ROOT,
      configFile: `${CONSOLE_ROOT}vite.config.ts`,
      mode: "production",
      logLevel: "warn",
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
}

import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Where a build keeps the generated SDL, for review and diffing (`build/schema.graphql`). */
export const SCHEMA_FILE_NAME = "schema.graphql";

/**
 * Writes the app's SDL to `<buildDir>/schema.graphql`. Returns whether it differs from the previous build,
 * so `trellis dev` can say "GraphQL schema changed" only when it did.
 */
export async function writeSchemaFile(
  buildDir: string,
  sdl: string,
): Promise<{ path: string; changed: boolean }> {
  const path = join(buildDir, SCHEMA_FILE_NAME);
  const previous = await readFile(path, "utf8").catch(() => undefined);
  if (previous === sdl) return { path, changed: false };
  await mkdir(buildDir, { recursive: true });
  await writeFile(path, sdl);
  return { path, changed: true };
}

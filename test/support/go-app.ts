import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** This checkout's Go SDK module. */
export const GO_SDK_DIR = join(import.meta.dirname, "../../runtime/sdk/go");
export const GO_SDK_MODULE = "github.com/trellis-dev/trellis/runtime/sdk/go";

/**
 * Copies a Go app (a fixture or the template) to `to`, its SDK requirement pointed at this checkout's
 * runtime/sdk/go with a replace directive, as the template's go.mod tells authors to do before the SDK
 * is published. Generated files and build output are left behind.
 */
export async function copyGoApp(from: string, to: string): Promise<void> {
  await cp(from, to, {
    recursive: true,
    filter: (src) => !/(^|\/)(build|trellis_exports_gen\.go|go\.sum)$/.test(src.slice(from.length)),
  });
  const goMod = join(to, "go.mod");
  const text = await readFile(goMod, "utf8");
  await writeFile(goMod, `${text.trimEnd()}\n\nreplace ${GO_SDK_MODULE} => ${GO_SDK_DIR}\n`);
}

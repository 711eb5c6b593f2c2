import { existsSync } from "node:fs";
import { cp, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Scaffolding an app (`trellis new`, the platform's first-start demo app) from the starter templates.
 * Where they are: in a checkout of the repository (the package's src/ is there), app-template/<language>/
 * itself; in the published @trellis/runtime, templates/<language>/, the copy of app-template/ made when
 * the package is packed (scripts/package-assets.mjs).
 */
export const TEMPLATE_ROOT = templateRoot();

function templateRoot(): string {
  const packageDir = new URL("../../", import.meta.url);
  const checkout = fileURLToPath(new URL("../app-template/", packageDir));
  const inCheckout = existsSync(fileURLToPath(new URL("src/", packageDir))) && existsSync(checkout);
  return inCheckout ? checkout : fileURLToPath(new URL("templates/", packageDir));
}

/** The front end every app starts with (the same page for both languages), copied to `<app>/web`. */
const WEB_TEMPLATE = "web";

/** npm never packs a file named .gitignore, so packed templates carry it as _gitignore. */
const PACKED_GITIGNORE = "_gitignore";

export type AppLanguage = "typescript" | "go";

/** App names as Modus and the platform accept them: lowercase alphanumerics and single hyphens. */
const APP_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export class NewAppError extends Error {
  override name = "NewAppError";
}

export interface NewAppOptions {
  name: string;
  language: AppLanguage;
  /** Target directory; default ./<name>. */
  dir?: string;
}

export function parseLanguage(value: string): AppLanguage {
  const v = value.toLowerCase();
  if (v === "typescript" || v === "ts") return "typescript";
  if (v === "go" || v === "golang") return "go";
  throw new NewAppError(`unknown language "${value}": use typescript (ts) or go`);
}

/** Scaffolds an app from the template; returns its directory. Refuses to write into a non-empty one. */
export async function createApp(options: NewAppOptions): Promise<string> {
  if (!APP_NAME.test(options.name) || options.name.length > 63) {
    throw new NewAppError(
      `invalid app name "${options.name}": use 1-63 lowercase letters, digits and single hyphens (e.g. my-app)`,
    );
  }
  const source = join(TEMPLATE_ROOT, options.language);
  if (!existsSync(source)) {
    throw new NewAppError(
      `no ${options.language} template at ${source}: reinstall @trellis/runtime (or @trellis/cli)`,
    );
  }
  const dir = resolve(options.dir ?? options.name);
  if (existsSync(dir) && (await readdir(dir)).length > 0) {
    throw new NewAppError(`${dir} exists and is not empty: choose another name or --dir`);
  }
  const filter = (src: string) => !["node_modules", "build", "generated"].includes(basename(src));
  await cp(source, dir, { recursive: true, filter });
  await cp(join(TEMPLATE_ROOT, WEB_TEMPLATE), join(dir, WEB_TEMPLATE), { recursive: true, filter });
  if (existsSync(join(dir, PACKED_GITIGNORE)))
    await rename(join(dir, PACKED_GITIGNORE), join(dir, ".gitignore"));
  await renameApp(dir, options.name, options.language);
  return dir;
}

async function renameApp(dir: string, name: string, language: AppLanguage): Promise<void> {
  if (language === "typescript") {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
      pkg.name = name;
      await writeFile(file, `${JSON.stringify(pkg, null, 2)}\n`);
    }
  } else {
    const file = join(dir, "go.mod");
    if (existsSync(file)) {
      const mod = await readFile(file, "utf8");
      await writeFile(file, mod.replace(/^module\s+\S+/m, `module ${name}`));
    }
  }
}

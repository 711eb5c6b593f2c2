import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import * as tar from "tar";
import { type AppLanguage, TEMPLATE_ROOT } from "./create-app.ts";

/**
 * Until the Trellis packages are on a registry, an app carries the ones it builds with, as Yarn carries
 * itself in `.yarn/releases`: `trellis new` packs them (`npm pack` of the installed or checked-out
 * packages) into `<app>/.trellis/packages/` and names them as `file:` dependencies, with `overrides` for
 * the ones they pull in, so `npm install` needs no Trellis package on any registry, on the developer's
 * machine and in the app's CI alike. A Go app also gets the Go SDK module at `<app>/.trellis/sdk-go`,
 * named by a `replace` line. Commit `.trellis/`.
 */
export const VENDOR_DIR = ".trellis";

/** The Go SDK's module path, as the Go template requires it. */
const GO_SDK_MODULE = "github.com/trellis-dev/trellis/runtime/sdk/go";

/** A package to vendor: its name and the directory it is installed (or checked out) in. */
export interface VendoredPackage {
  name: string;
  dir: string;
}

const run = promisify(execFile);

/**
 * Packs `packages` into the app and points its package.json (and a Go app's go.mod) at them. `packages`
 * must hold @trellis/runtime; the others are whatever the app's dependencies pull in.
 */
export async function vendorTrellisPackages(
  appDir: string,
  language: AppLanguage,
  packages: readonly VendoredPackage[],
): Promise<void> {
  const out = join(appDir, VENDOR_DIR, "packages");
  await mkdir(out, { recursive: true });
  const { stdout } = await run(
    "npm",
    ["pack", "--ignore-scripts", "--json", "--pack-destination", out, ...packages.map((p) => p.dir)],
    { maxBuffer: 64 * 1024 * 1024 },
  ).catch((e: { stderr?: string; message: string }) => {
    throw new Error(`npm pack of the Trellis packages failed: ${(e.stderr || e.message).trim()}`);
  });
  const packed = JSON.parse(stdout) as { name: string; filename: string; files: { path: string }[] }[];
  const tarballs = new Map<string, string>();
  for (const p of packed) tarballs.set(p.name, basename(p.filename.replace(/^@[^/]+\//, "")));
  const runtime = packed.find((p) => p.name === "@trellis/runtime");
  if (runtime === undefined)
    throw new Error("vendorTrellisPackages: @trellis/runtime is not among the packages");
  // Packed from a checkout, the runtime lacks the starter templates its prepack copies in (scripts are not
  // run: they rebuild everything): add them, so the vendored CLI can make apps too.
  if (!runtime.files.some((f) => f.path.startsWith("templates/"))) {
    await addTemplates(join(out, tarballs.get(runtime.name) as string));
  }
  await pointPackageJson(appDir, tarballs);
  if (language === "go") {
    const runtimeDir = packages.find((p) => p.name === "@trellis/runtime")?.dir as string;
    await vendorGoSdk(appDir, join(runtimeDir, "sdk/go"));
  }
}

/** The app's package.json: its Trellis dependencies from the tarballs, and the ones they pull in too. */
async function pointPackageJson(appDir: string, tarballs: ReadonlyMap<string, string>): Promise<void> {
  const file = join(appDir, "package.json");
  const pkg = JSON.parse(await readFile(file, "utf8")) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    overrides?: Record<string, string>;
  };
  const spec = (tarball: string) => `file:${VENDOR_DIR}/packages/${tarball}`;
  const overrides: Record<string, string> = { ...pkg.overrides };
  for (const [name, tarball] of tarballs) {
    for (const deps of [pkg.dependencies, pkg.devDependencies]) if (deps?.[name]) deps[name] = spec(tarball);
    // npm takes an override of a direct dependency only when it is the same spec.
    overrides[name] = spec(tarball);
  }
  pkg.overrides = overrides;
  await writeFile(file, `${JSON.stringify(pkg, null, 2)}\n`);
}

/** Adds the starter templates to a runtime tarball, as its prepack does (.gitignore packed as _gitignore). */
async function addTemplates(tarball: string): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), "trellis-pack-"));
  try {
    await tar.x({ file: tarball, cwd: work });
    const skip = new Set(["node_modules", "build", "generated", "data", ".trellis"]);
    await cp(TEMPLATE_ROOT, join(work, "package/templates"), {
      recursive: true,
      filter: (src) => !skip.has(basename(src)),
    });
    for (const language of ["typescript", "go"]) {
      const ignore = join(work, "package/templates", language, ".gitignore");
      if (existsSync(ignore)) await cp(ignore, join(work, "package/templates", language, "_gitignore"));
      await rm(ignore, { force: true });
    }
    await tar.c({ gzip: true, file: tarball, cwd: work, portable: true }, ["package"]);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Copies the Go SDK module into the app and has go.mod use it. */
async function vendorGoSdk(appDir: string, sdkDir: string): Promise<void> {
  if (!existsSync(join(sdkDir, "go.mod"))) throw new Error(`no Go SDK module at ${sdkDir}`);
  const target = join(appDir, VENDOR_DIR, "sdk-go");
  await cp(sdkDir, target, { recursive: true, filter: (src) => basename(src) !== "node_modules" });
  const file = join(appDir, "go.mod");
  const mod = (await readFile(file, "utf8"))
    .split("\n")
    .filter(
      (line) => !line.startsWith("// To build against a Trellis checkout") && !/^\/\/ replace /.test(line),
    )
    .join("\n")
    .trimEnd();
  await writeFile(
    file,
    `${mod}\n\n// The Go SDK this app was made with (trellis new), until it is published.\nreplace ${GO_SDK_MODULE} => ./${VENDOR_DIR}/sdk-go\n`,
  );
}

#!/usr/bin/env node
// Files a published package needs that live elsewhere in the repository. npm runs this from the package's
// `prepack` (before `npm pack` / `npm publish` builds the tarball) and `--clean` from its `postpack`, so
// the copies exist only while a tarball is made and a checkout always uses the originals:
//   templates  app-template/<language>/ → runtime/templates/<language>/ (what `trellis new` copies)
//   console    the console's Vite build → platform/console-dist/ (what the platform serves)
// Usage: node scripts/package-assets.mjs [--clean] templates|console
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const ASSETS = {
  templates: { dir: join(ROOT, "runtime/templates"), make: copyTemplates },
  console: { dir: join(ROOT, "platform/console-dist"), make: buildConsole },
};

/** Copies each starter app; `.gitignore` becomes `_gitignore` (npm never packs a .gitignore). */
function copyTemplates(out) {
  const source = join(ROOT, "app-template");
  for (const file of templateFiles(source)) {
    const target = join(out, relative(source, file));
    const renamed = basename(target) === ".gitignore" ? join(dirname(target), "_gitignore") : target;
    mkdirSync(dirname(renamed), { recursive: true });
    cpSync(file, renamed);
  }
  for (const language of ["typescript", "go"]) {
    if (!existsSync(join(out, language, "trellis.json"))) fail(`the ${language} template was not copied`);
  }
}

/**
 * The template's files as git sees them: tracked, plus new files not ignored (so local builds, node_modules
 * and generated code stay out). Without git (a source archive), everything but node_modules and build/.
 */
function templateFiles(source) {
  const git = spawnSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", source],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  if (git.status === 0) {
    return git.stdout
      .split("\0")
      .filter(Boolean)
      .map((f) => join(ROOT, f))
      .filter((f) => existsSync(f));
  }
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "build") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(source);
  return files;
}

/** A production build of the console (Vite), written straight into the platform package. */
function buildConsole(out) {
  const vite = join(ROOT, "node_modules/vite/bin/vite.js");
  if (!existsSync(vite)) fail("vite is not installed: run `npm install` at the repository root");
  const result = spawnSync(
    process.execPath,
    [vite, "build", "--outDir", out, "--emptyOutDir", "--logLevel", "warn"],
    { cwd: join(ROOT, "console"), stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } },
  );
  if (result.status !== 0) fail("the console build failed (see above)");
  if (!existsSync(join(out, "index.html"))) fail(`the console build wrote no ${join(out, "index.html")}`);
}

function fail(message) {
  console.error(`package-assets: ${message}`);
  process.exit(1);
}

const args = process.argv.slice(2);
const clean = args.includes("--clean");
const names = args.filter((a) => a !== "--clean");
if (names.length === 0 || names.some((n) => !(n in ASSETS))) {
  fail(`usage: node scripts/package-assets.mjs [--clean] ${Object.keys(ASSETS).join("|")}`);
}
for (const name of names) {
  const { dir, make } = ASSETS[name];
  rmSync(dir, { recursive: true, force: true });
  if (!clean) make(dir);
}

/**
 * A new app's .gitignore keeps out of git what building and running it writes: build output (and its
 * staging folder), node_modules, trellis dev's graph database, local secrets and generated code; its
 * sources stay in. Checked with git itself.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/scaffold/create-app.ts";

const WRITTEN = [
  "build/app.wasm",
  "build.staging-1234/app.wasm",
  "node_modules/x/index.js",
  "data/graphdb/data.mdb",
  ".env.dev.local",
  "web/src/generated/graphql.ts",
];

describe("a new app's .gitignore", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it.each(["typescript", "go"] as const)(
    "ignores what a %s app's build and trellis dev write",
    async (language) => {
      const root = await mkdtemp(join(tmpdir(), "trellis-gitignore-"));
      dirs.push(root);
      const dir = await createApp({ name: "ignored-app", language, dir: join(root, "app") });
      const written = language === "go" ? [...WRITTEN, "trellis_exports_gen.go"] : WRITTEN;
      for (const file of written) {
        await mkdir(dirname(join(dir, file)), { recursive: true });
        await writeFile(join(dir, file), "x");
      }
      const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" });
      git("init", "-q");
      const ignored = written.filter((file) => {
        try {
          git("check-ignore", "-q", file);
          return true;
        } catch {
          return false;
        }
      });
      expect(ignored).toEqual(written);
      // The app's own files are not ignored.
      const tracked = git("ls-files", "--others", "--exclude-standard").split("\n").filter(Boolean);
      expect(tracked).toEqual(expect.arrayContaining(["trellis.json", "package.json", ".gitignore"]));
      expect(
        tracked.some((f) => f.startsWith("build") || f.startsWith("data/") || f.includes("generated")),
      ).toBe(false);
    },
  );
});

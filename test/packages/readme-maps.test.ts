/**
 * Each package's README is its map: it must exist, and every file or folder it names in backticks must
 * exist, so the traced request paths cannot drift from the code. Paths are relative to the package
 * (`src/server/http-server.ts`) or to the repository (`bench/graphdb/README.md`).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const PACKAGES = ["graphdb", "runtime", "platform", "console"];
const FILE = /\.(ts|tsx|mts|mjs|js|json|html|css|md|go|wit|proto|ya?ml)$/;

/** Backticked tokens that name a file (known extension) or a folder (ending in `/`). */
function namedPaths(markdown: string): string[] {
  const out = new Set<string>();
  for (const match of markdown.matchAll(/`([^`\s]+)`/g)) {
    const token = match[1];
    if (token.startsWith("/") || token.includes("://") || /[*{}<>$:]/.test(token)) continue;
    if (FILE.test(token) || (token.endsWith("/") && token.length > 1)) out.add(token);
  }
  return [...out];
}

function exists(base: string, path: string): boolean {
  const full = join(base, path);
  if (!existsSync(full)) return false;
  return path.endsWith("/") ? statSync(full).isDirectory() : statSync(full).isFile();
}

describe("package READMEs", () => {
  for (const pkg of PACKAGES) {
    it(`${pkg}/README.md names only files that exist`, () => {
      const readme = join(ROOT, pkg, "README.md");
      expect(existsSync(readme), `${pkg}/README.md is missing`).toBe(true);
      const paths = namedPaths(readFileSync(readme, "utf8"));
      expect(paths.length).toBeGreaterThan(5);
      const missing = paths.filter((p) => !exists(join(ROOT, pkg), p) && !exists(ROOT, p));
      expect(missing).toEqual([]);
    });
  }

  it("the root README links nothing outside the repository", () => {
    const text = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(text.match(/\]\(\.\.\/|`\.\.\/[^`]*`/g) ?? []).toEqual([]);
  });

  it("finds file and folder names, not routes, MIME types or globs", () => {
    expect(
      namedPaths("`src/index.ts` `/query` `application/json` `src/` `*.ts` `http://x/a.ts` `a.b`"),
    ).toEqual(["src/index.ts", "src/"]);
  });
});

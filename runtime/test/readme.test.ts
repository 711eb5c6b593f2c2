import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = join(import.meta.dirname, "..");

describe("runtime/README.md", () => {
  it("names only files and folders that exist (paths relative to the package)", () => {
    const readme = readFileSync(join(PACKAGE_DIR, "README.md"), "utf8");
    const paths = [...readme.matchAll(/`([^`\n]+)`/g)]
      .map((m) => m[1])
      .filter((p) => /(\.(ts|mjs|json|html|go|wit)|\/)$/.test(p));
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => !existsSync(join(PACKAGE_DIR, p)))).toEqual([]);
  });
});
